# Source build on install (node-gyp, run by node-gyp-build when no prebuild fits). The shipped
# prebuilds come from scripts/prebuilds.mjs (CMake). Both read native/sources.json, and both link
# the C++ runtime in: /MT (RuntimeLibrary 0) on Windows, static libstdc++/libgcc on Linux.
# Both export only the module's entry point (hidden visibility), as the development build does.
{
  "targets": [
    {
      "target_name": "social_sdk_auth",
      "sources": [
        "<!@(node -p \"require('./native/sources.json').core.concat(require('./native/sources.json').addon).join(' ')\")"
      ],
      "include_dirs": [
        "native/core/include",
        "<!(node -p \"require('node-addon-api').include_dir\")"
      ],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED",
                  "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17"],
      "cflags_cc": ["-std=c++17", "-fexceptions", "-fvisibility=hidden", "-fvisibility-inlines-hidden"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "MACOSX_DEPLOYMENT_TARGET": "10.15"
      },
      "msvs_settings": {
        "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/std:c++17"] }
      },
      "conditions": [
        ["OS=='win'", {
          "libraries": ["ws2_32.lib", "bcrypt.lib"],
          "msvs_settings": {
            "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/std:c++17"], "RuntimeLibrary": 0 }
          }
        }],
        ["OS=='linux'", { "ldflags": ["-static-libstdc++", "-static-libgcc", "-Wl,--exclude-libs,ALL"] }]
      ]
    }
  ]
}
