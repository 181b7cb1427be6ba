// The real Node of another platform, for running the cross-built prebuilds under Wine or qemu:
//   node scripts/platform-node.mjs win32-x64     -> prints the path of node.exe
//   node scripts/platform-node.mjs linux-arm64   -> prints the path of the arm64 node
// Fetched once with `npm pack` (the npm registry is the one source CI may use) into
// node_modules/.cache/social-sdk-auth/; how, and the pinned version, are in scripts/lib/platform-run.cjs.
import { foreignPlatforms, platformNode } from './lib/platform-run.cjs';

const target = process.argv[2];
if (!foreignPlatforms.includes(target)) {
  console.error(`platform-node: name a platform: ${foreignPlatforms.join(' or ')}.`);
  process.exit(2);
}
console.log(platformNode(target));
