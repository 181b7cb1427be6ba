// One list of nested error codes: FieldErrorCode holds each code once, and the former per-kind
// constants (CommandErrorCode, ComponentErrorCode, MessageErrorCode) are aliases of it.
import { describe, expect, it } from 'vitest';
import { CommandErrorCode, FieldErrorCode, validateCommand } from '../../src/commands/index.js';
import { ComponentErrorCode, FieldErrorCode as ComponentsFieldErrorCode, MessageErrorCode, validateMessage } from '../../src/components/index.js';

describe('FieldErrorCode', () => {
  it('is one list, exported the same from both subpaths, each code once', () => {
    expect(ComponentsFieldErrorCode).toBe(FieldErrorCode);
    const codes = Object.values(FieldErrorCode);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('keeps the former constants as aliases whose every value is in the one list', () => {
    const all = new Set<string>(Object.values(FieldErrorCode));
    for (const former of [CommandErrorCode, ComponentErrorCode, MessageErrorCode]) {
      for (const code of Object.values(former)) expect(all.has(code)).toBe(true);
    }
    expect(CommandErrorCode.FieldNotAllowed).toBe(FieldErrorCode.CommandFieldNotAllowed);
    expect(CommandErrorCode.TooLarge).toBe(FieldErrorCode.CommandTooLarge);
    expect(ComponentErrorCode.FieldNotAllowed).toBe(FieldErrorCode.ComponentFieldNotAllowed);
    expect(ComponentErrorCode.TypeInvalid).toBe(FieldErrorCode.ComponentTypeInvalid);
    expect(MessageErrorCode.AttachmentNotFound).toBe(FieldErrorCode.AttachmentNotFound);
    expect(CommandErrorCode.Required).toBe(ComponentErrorCode.Required);
  });

  it('names what the validators give', () => {
    const command = validateCommand({ name: 'ping', description: 'd', handler: 1 }, { scope: 'global', operation: 'create' });
    expect(command.errors).toEqual([expect.objectContaining({ path: 'handler', code: FieldErrorCode.CommandFieldNotAllowed })]);
    const message = validateMessage({ components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'a', label: 'A', bogus: 1 }] }] });
    expect(message.errors).toEqual([expect.objectContaining({ path: 'components[0].components[0].bogus', code: FieldErrorCode.ComponentFieldNotAllowed })]);
  });
});
