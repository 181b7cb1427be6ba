// Reading what a prebuild promises out of its own headers, in plain JavaScript (no objdump,
// otool or dumpbin needed, so the check runs on every CI runner): the format and CPU, the
// exported symbols, the libraries it links at load time, and the oldest OS it declares it runs on.
//   ELF (Linux):    e_machine, .dynsym, DT_NEEDED, GLIBC_x.y version needs (.gnu.version_r)
//   PE (Windows):   COFF machine, export directory, import and delay-import DLLs, subsystem version
//   Mach-O (macOS): cputype, LC_SYMTAB and the dyld export trie, LC_LOAD_DYLIB, LC_BUILD_VERSION
//                   or LC_VERSION_MIN_MACOSX
// Only 64-bit little-endian files are read: every platform the package ships is one.

/** A reader over a Buffer whose every access is bounds-checked with a sentence naming the part. */
class Reader {
  constructor(buffer, format) {
    this.buffer = buffer;
    this.format = format;
  }

  check(offset, size, what) {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + size > this.buffer.length) {
      throw new Error(`the ${this.format} ${what} at offset ${offset} lies outside the ${this.buffer.length}-byte file (truncated or damaged).`);
    }
  }

  u8(offset, what = 'header') {
    this.check(offset, 1, what);
    return this.buffer.readUInt8(offset);
  }

  u16(offset, what = 'header') {
    this.check(offset, 2, what);
    return this.buffer.readUInt16LE(offset);
  }

  u32(offset, what = 'header') {
    this.check(offset, 4, what);
    return this.buffer.readUInt32LE(offset);
  }

  u64(offset, what = 'header') {
    this.check(offset, 8, what);
    const value = this.buffer.readBigUInt64LE(offset);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`the ${this.format} ${what} at offset ${offset} holds an impossible value.`);
    return Number(value);
  }

  /** A NUL-terminated string starting at `offset`, not reaching past `end`. */
  cstring(offset, end = this.buffer.length, what = 'string table') {
    this.check(offset, 1, what);
    const stop = this.buffer.indexOf(0, offset);
    if (stop < 0 || stop >= end) throw new Error(`the ${this.format} ${what} has a name at offset ${offset} without its terminating NUL.`);
    return this.buffer.toString('latin1', offset, stop);
  }
}

/** 'ELF', 'PE', 'Mach-O', 'Mach-O universal' or undefined, from the first bytes. */
export function detectFormat(buffer) {
  if (buffer.length >= 4 && buffer.readUInt32BE(0) === 0x7f454c46) return 'ELF';
  if (buffer.length >= 2 && buffer.toString('latin1', 0, 2) === 'MZ') return 'PE';
  if (buffer.length >= 4) {
    const le = buffer.readUInt32LE(0);
    if (le === 0xfeedfacf || le === 0xfeedface) return 'Mach-O';
    const be = buffer.readUInt32BE(0);
    if (be === 0xcafebabe || be === 0xcafebabf) return 'Mach-O universal';
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------- ELF

const ELF_MACHINES = { 3: 'x86', 40: 'arm', 62: 'x86-64', 183: 'aarch64', 243: 'riscv' };
const SHT_DYNSYM = 11;
const SHT_DYNAMIC = 6;
const SHT_GNU_VERNEED = 0x6ffffffe;
const DT_NEEDED = 1;

function readElf(buffer) {
  const r = new Reader(buffer, 'ELF');
  if (r.u8(4) !== 2 || r.u8(5) !== 1) {
    return {
      format: 'ELF',
      arch: `${r.u8(4) === 1 ? '32-bit' : 'unknown class'}${r.u8(5) === 2 ? ' big-endian' : ''}`,
      exports: [],
      libraries: [],
      minimumOs: undefined,
    };
  }
  const machine = r.u16(18);
  const shoff = r.u64(0x28);
  const shentsize = r.u16(0x3a);
  const shnum = r.u16(0x3c);
  if (shoff === 0 || shnum === 0) throw new Error('the ELF file has no section headers, so its dynamic symbols cannot be read.');
  if (shentsize < 64) throw new Error(`the ELF section header size ${shentsize} is smaller than 64 bytes.`);
  const sections = [];
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * shentsize;
    sections.push({
      type: r.u32(at + 4, 'section header'),
      offset: r.u64(at + 24, 'section header'),
      size: r.u64(at + 32, 'section header'),
      link: r.u32(at + 36 + 4, 'section header'),
      info: r.u32(at + 44, 'section header'),
      entsize: r.u64(at + 56, 'section header'),
    });
  }
  const strtabOf = (section) => {
    const strtab = sections[section.link];
    if (!strtab) throw new Error(`an ELF section links to string table ${section.link}, which does not exist.`);
    r.check(strtab.offset, strtab.size, 'string table');
    return (index) => r.cstring(strtab.offset + index, strtab.offset + strtab.size);
  };

  const exports = [];
  for (const dynsym of sections.filter((s) => s.type === SHT_DYNSYM)) {
    const name = strtabOf(dynsym);
    const size = dynsym.entsize || 24;
    for (let at = dynsym.offset + size; at + size <= dynsym.offset + dynsym.size; at += size) {
      const info = r.u8(at + 4, 'dynamic symbol');
      const shndx = r.u16(at + 6, 'dynamic symbol');
      const bind = info >> 4;
      // Defined (not SHN_UNDEF) and global or weak: what the loader can find in this file.
      if (shndx !== 0 && (bind === 1 || bind === 2)) exports.push(name(r.u32(at, 'dynamic symbol')));
    }
  }

  const libraries = [];
  for (const dynamic of sections.filter((s) => s.type === SHT_DYNAMIC)) {
    const name = strtabOf(dynamic);
    for (let at = dynamic.offset; at + 16 <= dynamic.offset + dynamic.size; at += 16) {
      const tag = r.u64(at, 'dynamic entry');
      if (tag === 0) break;
      if (tag === DT_NEEDED) libraries.push(name(r.u64(at + 8, 'dynamic entry')));
    }
  }

  // Version needs: library file -> the version names it must provide (GLIBC_2.35, GLIBCXX_3.4.30 …).
  const versions = [];
  for (const verneed of sections.filter((s) => s.type === SHT_GNU_VERNEED)) {
    const name = strtabOf(verneed);
    let at = verneed.offset;
    for (let i = 0; i < verneed.info; i++) {
      const count = r.u16(at + 2, 'version need');
      const file = name(r.u32(at + 4, 'version need'));
      let aux = at + r.u32(at + 8, 'version need');
      for (let j = 0; j < count; j++) {
        versions.push({ file, version: name(r.u32(aux + 8, 'version need')) });
        const next = r.u32(aux + 12, 'version need');
        if (next === 0) break;
        aux += next;
      }
      const next = r.u32(at + 12, 'version need');
      if (next === 0) break;
      at += next;
    }
  }
  const glibc = versions.map((v) => /^GLIBC_(\d+(?:\.\d+)+)$/.exec(v.version)?.[1]).filter(Boolean);
  return {
    format: 'ELF',
    arch: ELF_MACHINES[machine] ?? `machine ${machine}`,
    exports,
    libraries,
    versionNeeds: versions.map((v) => v.version),
    minimumOs: glibc.length ? { name: 'glibc', version: newestVersion(glibc) } : { name: 'glibc', version: '0' },
  };
}

// ----------------------------------------------------------------------------------------- PE

const PE_MACHINES = { 0x8664: 'x64', 0xaa64: 'arm64', 0x14c: 'x86', 0x1c4: 'arm' };

function readPe(buffer) {
  const r = new Reader(buffer, 'PE');
  const pe = r.u32(0x3c);
  if (r.u32(pe) !== 0x00004550) throw new Error('the file starts with MZ but has no PE signature where its DOS header points.');
  const coff = pe + 4;
  const machine = r.u16(coff);
  const sectionCount = r.u16(coff + 2);
  const optionalSize = r.u16(coff + 16);
  const opt = coff + 20;
  const magic = r.u16(opt);
  if (magic !== 0x20b) {
    return {
      format: 'PE',
      arch: `${PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`} (PE32, not PE32+)`,
      exports: [],
      libraries: [],
      minimumOs: undefined,
    };
  }
  const osVersion = `${r.u16(opt + 40)}.${r.u16(opt + 42)}`;
  const subsystemVersion = `${r.u16(opt + 48)}.${r.u16(opt + 50)}`;
  const directoryCount = r.u32(opt + 108);
  const directory = (index) => (index < directoryCount ? { rva: r.u32(opt + 112 + index * 8), size: r.u32(opt + 116 + index * 8) } : { rva: 0, size: 0 });
  const sections = [];
  for (let i = 0; i < sectionCount; i++) {
    const at = opt + optionalSize + i * 40;
    sections.push({
      va: r.u32(at + 12, 'section table'),
      vsize: r.u32(at + 8, 'section table'),
      raw: r.u32(at + 20, 'section table'),
      rawSize: r.u32(at + 16, 'section table'),
    });
  }
  const offsetOf = (rva, what) => {
    const section = sections.find((s) => rva >= s.va && rva < s.va + Math.max(s.vsize, s.rawSize));
    if (!section) throw new Error(`the PE ${what} address 0x${rva.toString(16)} is in no section.`);
    return section.raw + (rva - section.va);
  };
  const name = (rva, what) => r.cstring(offsetOf(rva, what), buffer.length, what);

  const exports = [];
  const exportDir = directory(0);
  if (exportDir.rva) {
    const at = offsetOf(exportDir.rva, 'export directory');
    const count = r.u32(at + 24, 'export directory');
    const names = offsetOf(r.u32(at + 32, 'export directory'), 'export name table');
    for (let i = 0; i < count; i++) exports.push(name(r.u32(names + i * 4, 'export name table'), 'export name'));
  }

  const libraries = [];
  const importDir = directory(1);
  if (importDir.rva) {
    for (let at = offsetOf(importDir.rva, 'import directory'); ; at += 20) {
      const dll = r.u32(at + 12, 'import directory');
      if (dll === 0 && r.u32(at, 'import directory') === 0) break;
      libraries.push(name(dll, 'import DLL name'));
    }
  }

  const delayLoaded = [];
  const delayDir = directory(13);
  if (delayDir.rva) {
    for (let at = offsetOf(delayDir.rva, 'delay-import directory'); ; at += 32) {
      const dll = r.u32(at + 4, 'delay-import directory');
      if (dll === 0) break;
      // Attribute bit 0 set: addresses are RVAs (every current linker); else old-style VAs.
      const rva = r.u32(at, 'delay-import directory') & 1 ? dll : dll - r.u64(opt + 24);
      delayLoaded.push(name(rva, 'delay-import DLL name'));
    }
  }

  return {
    format: 'PE',
    arch: PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`,
    exports,
    libraries,
    delayLoaded,
    osVersion,
    minimumOs: { name: 'Windows', version: newestVersion([osVersion, subsystemVersion]) },
  };
}

// ------------------------------------------------------------------------------------- Mach-O

const MACHO_CPUS = { 0x01000007: 'x86_64', 0x0100000c: 'arm64', 7: 'i386', 12: 'arm' };
const LC_SYMTAB = 0x2;
const LC_LOAD_DYLIB = 0xc;
const LC_LOAD_WEAK_DYLIB = 0x80000018;
const LC_REEXPORT_DYLIB = 0x8000001f;
const LC_LAZY_LOAD_DYLIB = 0x20;
const LC_LOAD_UPWARD_DYLIB = 0x80000023;
const LC_VERSION_MIN_MACOSX = 0x24;
const LC_BUILD_VERSION = 0x32;
const LC_DYLD_INFO = 0x22;
const LC_DYLD_INFO_ONLY = 0x80000022;
const LC_DYLD_EXPORTS_TRIE = 0x80000033;
const PLATFORM_MACOS = 1;

/** A packed Mach-O version (xxxx.yy.zz in nibbles) as "major.minor[.patch]". */
function machoVersion(packed) {
  const patch = packed & 0xff;
  return `${packed >>> 16}.${(packed >> 8) & 0xff}${patch ? `.${patch}` : ''}`;
}

function uleb(r, offset, end) {
  let value = 0;
  let shift = 0;
  for (let at = offset; at < end; at++) {
    const byte = r.u8(at, 'export trie');
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return { value, next: at + 1 };
    if (shift > 49) break;
  }
  throw new Error('the Mach-O export trie has a number that does not end inside it.');
}

/** Every symbol name in a dyld export trie (the table dyld itself reads). */
function trieExports(r, start, size) {
  const end = start + size;
  r.check(start, size, 'export trie');
  const found = [];
  const seen = new Set();
  const stack = [{ offset: start, prefix: '' }];
  while (stack.length > 0) {
    const { offset, prefix } = stack.pop();
    if (seen.has(offset) || offset >= end) throw new Error('the Mach-O export trie loops or points outside itself.');
    seen.add(offset);
    const terminal = uleb(r, offset, end);
    if (terminal.value > 0) found.push(prefix);
    let at = terminal.next + terminal.value;
    const children = r.u8(at, 'export trie');
    at += 1;
    for (let i = 0; i < children; i++) {
      const edge = r.cstring(at, end, 'export trie');
      at += edge.length + 1;
      const child = uleb(r, at, end);
      at = child.next;
      stack.push({ offset: start + child.value, prefix: prefix + edge });
    }
  }
  return found;
}

function readMachO(buffer) {
  const r = new Reader(buffer, 'Mach-O');
  if (r.u32(0) !== 0xfeedfacf) return { format: 'Mach-O', arch: '32-bit', exports: [], libraries: [], minimumOs: undefined };
  const cpu = r.u32(4);
  const filetype = r.u32(12);
  const commandCount = r.u32(16);
  const exports = new Set();
  const libraries = [];
  let minimumOs;
  let at = 32;
  for (let i = 0; i < commandCount; i++) {
    const cmd = r.u32(at, 'load command');
    const size = r.u32(at + 4, 'load command');
    if (size < 8) throw new Error(`the Mach-O load command ${i} says it is ${size} bytes long.`);
    r.check(at, size, 'load command');
    if ([LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB, LC_LAZY_LOAD_DYLIB, LC_LOAD_UPWARD_DYLIB].includes(cmd)) {
      libraries.push(r.cstring(at + r.u32(at + 8, 'dylib command'), at + size, 'dylib command'));
    } else if (cmd === LC_BUILD_VERSION) {
      const platform = r.u32(at + 8, 'build version');
      minimumOs = { name: platform === PLATFORM_MACOS ? 'macOS' : `Apple platform ${platform}`, version: machoVersion(r.u32(at + 12, 'build version')) };
    } else if (cmd === LC_VERSION_MIN_MACOSX && !minimumOs) {
      minimumOs = { name: 'macOS', version: machoVersion(r.u32(at + 8, 'version command')) };
    } else if (cmd === LC_SYMTAB) {
      const symoff = r.u32(at + 8, 'symbol table');
      const nsyms = r.u32(at + 12, 'symbol table');
      const stroff = r.u32(at + 16, 'symbol table');
      const strsize = r.u32(at + 20, 'symbol table');
      for (let s = 0; s < nsyms; s++) {
        const entry = symoff + s * 16;
        const type = r.u8(entry + 4, 'symbol table');
        // External (N_EXT), defined in a section (N_SECT), not a debugging entry (N_STAB).
        if ((type & 0xe0) === 0 && (type & 0x01) === 1 && (type & 0x0e) === 0x0e) {
          exports.add(r.cstring(stroff + r.u32(entry, 'symbol table'), stroff + strsize, 'symbol names'));
        }
      }
    } else if (cmd === LC_DYLD_INFO || cmd === LC_DYLD_INFO_ONLY) {
      const offset = r.u32(at + 40, 'dyld info');
      const length = r.u32(at + 44, 'dyld info');
      if (length > 0) for (const name of trieExports(r, offset, length)) exports.add(name);
    } else if (cmd === LC_DYLD_EXPORTS_TRIE) {
      const offset = r.u32(at + 8, 'exports trie command');
      const length = r.u32(at + 12, 'exports trie command');
      if (length > 0) for (const name of trieExports(r, offset, length)) exports.add(name);
    }
    at += size;
  }
  return {
    format: 'Mach-O',
    arch: MACHO_CPUS[cpu] ?? `cputype 0x${cpu.toString(16)}`,
    filetype: { 6: 'dylib', 8: 'bundle' }[filetype] ?? `filetype ${filetype}`,
    // C names carry a leading underscore in Mach-O symbol tables.
    exports: [...exports].map((n) => (n.startsWith('_') ? n.slice(1) : n)).sort(),
    libraries,
    minimumOs,
  };
}

/** The newest of some dotted versions, compared numerically. */
export function newestVersion(versions) {
  return versions.reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
}

/** <0, 0 or >0 as dotted version `a` is older than, the same as or newer than `b`. */
export function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return 0;
}

/**
 * What a binary's headers say: { format, arch, exports, libraries, minimumOs: { name, version } }
 * (plus delayLoaded for PE, versionNeeds for ELF, filetype for Mach-O). Throws a sentence when
 * the file is not a binary this reads or its headers point outside it.
 */
export function readBinaryHeaders(buffer) {
  const format = detectFormat(buffer);
  if (format === 'ELF') return readElf(buffer);
  if (format === 'PE') return readPe(buffer);
  if (format === 'Mach-O') return readMachO(buffer);
  if (format === 'Mach-O universal') return { format, arch: 'universal (several architectures)', exports: [], libraries: [], minimumOs: undefined };
  throw new Error('the file is not an ELF, PE or Mach-O binary (its first bytes match none of them).');
}
