// The component and command validators given what no JSON parser produces: cycles, getters that
// throw, Proxies whose traps throw, and arrays of a million items. They must return errors, never
// throw, never hang and never run a getter; fillComponentIds must throw only argument errors.
import { describe, expect, it } from 'vitest';

import { validateCommand, validateCommandPermissions, validateCommands } from '../../src/commands/index.js';
import { fillComponentIds, validateMessage, validateModal } from '../../src/components/index.js';
import { verifyInteraction } from '../../src/interactions/index.js';

const trap = (): never => {
  throw new Error('trap ran');
};
const hostileProxy = (): object =>
  new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap, isExtensible: trap, defineProperty: trap });
const throwingGetter = (key: string): object => Object.defineProperty({ type: 1 }, key, { get: trap, enumerable: true });

/** Items read from the counted million-item arrays since the last reset. */
let itemReads = 0;

/**
 * A million copies of `item` in a real array, behind a Proxy that counts each item read (an index
 * looked up, or every index listed at once); Array.isArray still holds for it.
 */
function countedMillion(item: unknown): unknown[] {
  const count = (key: string | symbol): void => {
    if (typeof key === 'string' && /^\d+$/.test(key)) itemReads++;
  };
  return new Proxy(new Array<unknown>(1_000_000).fill(item), {
    get(target, key, receiver) {
      count(key);
      return Reflect.get(target, key, receiver);
    },
    getOwnPropertyDescriptor(target, key) {
      count(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    has(target, key) {
      count(key);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      itemReads += target.length;
      return Reflect.ownKeys(target);
    },
  });
}

function hostileBodies(million: (item: unknown) => unknown[] = (item) => new Array<unknown>(1_000_000).fill(item)): Array<[string, unknown]> {
  const cyclicRow: Record<string, unknown> = { type: 1 };
  cyclicRow.components = [cyclicRow];
  const container: Record<string, unknown> = { type: 17 };
  container.components = [container];
  const cyclicCommand: Record<string, unknown> = { name: 'roll', description: 'd', type: 1 };
  cyclicCommand.options = [cyclicCommand];
  const selfArray: unknown[] = [];
  selfArray.push(selfArray);
  const items = million({ type: 2, style: 1, label: 'x', custom_id: 'x' });
  const sparse: unknown[] = [];
  sparse.length = 2 ** 32 - 1;
  return [
    ['a cyclic action row', { components: [cyclicRow] }],
    ['a cyclic V2 container', { flags: 1 << 15, components: [container] }],
    ['a cyclic command', cyclicCommand],
    ['an array containing itself', { components: selfArray, options: selfArray }],
    ['a Proxy whose traps throw', hostileProxy()],
    ['a body whose components is a Proxy', { components: hostileProxy(), options: hostileProxy(), permissions: hostileProxy() }],
    [
      'a component with a throwing getter',
      {
        components: [throwingGetter('components')],
        name: 'x',
        get description(): string {
          return trap();
        },
      },
    ],
    ['a million items', { components: items, options: items, permissions: items, title: 't', custom_id: 'c' }],
    ['a sparse array of 2^32-1', { components: sparse, options: sparse, permissions: sparse }],
    ['an empty Proxy', new Proxy({}, {})],
  ];
}

function revoke(): object {
  const { proxy, revoke: r } = Proxy.revocable({}, {});
  r();
  return proxy;
}

describe('validators against exotic objects', () => {
  const validators: Array<[string, (body: unknown) => { ok: boolean; errors: unknown[] }]> = [
    ['validateMessage', validateMessage],
    ['validateModal', validateModal],
    ['validateCommand', (b) => validateCommand(b, { scope: 'global', operation: 'create' })],
    ['validateCommands', (b) => validateCommands(b, { scope: 'guild' })],
    ['validateCommandPermissions', validateCommandPermissions],
  ];

  for (const [name, validate] of validators) {
    it(`${name} returns errors and never throws or runs a getter`, () => {
      const bodies = [
        ...hostileBodies(countedMillion),
        ['a revoked Proxy (revoked)', revoke()] as [string, unknown],
        ['an array of a million commands', countedMillion({ name: 'x', description: 'y' })] as [string, unknown],
      ];
      for (const [what, body] of bodies) {
        itemReads = 0;
        let result: { ok: boolean; errors: unknown[] } | undefined;
        expect(() => (result = validate(body)), `${name}: ${what}`).not.toThrow();
        // A command has no message fields: the message validator rightly has nothing to say about it.
        if (!(name === 'validateMessage' && (what === 'a cyclic command' || what === 'an empty Proxy'))) {
          expect(result?.ok, `${name}: ${what}`).toBe(false);
          expect(result?.errors.length, `${name}: ${what}`).toBeGreaterThan(0);
        }
        // Bounded work: a few hundred items inspected at most, never a walk of the whole million
        // (a hang ends at the test's own timeout).
        expect(itemReads, `${name}: ${what}`).toBeLessThanOrEqual(1000);
      }
    });
  }
});

describe('argument errors about exotic objects', () => {
  it('are typed for a revoked Proxy given as options', () => {
    for (const value of [revoke()]) {
      let thrown: unknown;
      try {
        verifyInteraction(value as never);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as { code?: string }).code).toBe('ERR_INVALID_ARG_TYPE');
      expect(String((thrown as Error).message)).toMatch(/^verifyInteraction: options must be/);
    }
  });
});

describe('fillComponentIds against exotic objects', () => {
  it('throws only typed argument errors', () => {
    for (const [what, body] of [...hostileBodies(), ['a revoked Proxy (revoked)', revoke()] as [string, unknown]]) {
      let thrown: unknown;
      try {
        fillComponentIds(body as never);
      } catch (error) {
        thrown = error;
      }
      if (thrown === undefined) continue;
      expect(thrown, `${what}: ${String(thrown)}`).toBeInstanceOf(Error);
      expect((thrown as { code?: string }).code, `${what}: ${String(thrown)}`).toBeDefined();
      expect((thrown as { code?: string }).code, `${what}: ${String(thrown)}`).toMatch(/^ERR_(INVALID_ARG_TYPE|OUT_OF_RANGE)$/);
      expect(String((thrown as Error).message), what).toMatch(/^fillComponentIds: tree must be/);
    }
  });
});
