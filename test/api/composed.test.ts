// PlatformApi is one class composed over one private request core: no base classes to extend or
// reach the core through, and nothing on an instance but its public methods.
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import { PlatformApi } from '../../src/api/index.js';

const BOT = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.abc.def';

describe('PlatformApi, composed', () => {
  it('extends nothing: its prototype sits directly on Object.prototype', () => {
    expect(Object.getPrototypeOf(PlatformApi.prototype)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(PlatformApi)).toBe(Function.prototype);
  });

  it('an instance has no own properties and its prototype holds only public operations', async () => {
    const client = new PlatformApi({ botToken: BOT });
    try {
      expect(Reflect.ownKeys(client)).toEqual([]);
      const names = Object.getOwnPropertyNames(PlatformApi.prototype);
      for (const name of ['request', 'close', 'createLobby', 'createMessage', 'createGlobalCommand', 'editCommandPermissions', 'apiBase', 'credential']) {
        expect(names).toContain(name);
      }
      expect(names.filter((n) => n.startsWith('_') || n === 'send' || n === 'sendWithStatus')).toEqual([]);
      expect(Object.getOwnPropertySymbols(PlatformApi)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('the package exports no core class or request helper beside PlatformApi', () => {
    const exported = Object.keys(api);
    for (const internal of ['PlatformApiCore', 'PlatformCommandsApi', 'PlatformMessagesApi', 'RequestCore', 'sendWithStatus']) {
      expect(exported).not.toContain(internal);
    }
  });
});
