/**
 * A submitted modal's `data.components`: for each component of the modal the application opened,
 * the response shape components.md gives for its type, filled from the player's answers (by
 * `custom_id`) or the component's defaults, and checked against the component's own rules.
 */
import { randomBytes } from 'node:crypto';
import { checkSnowflake } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';
import { ComponentType } from '../../rules/components.js';
import type { EmulatorContext } from '../kernel/context.js';
import { channelJson, partialMemberJson, roleJson, userJson } from '../world/render.js';
import type { GuildRecord } from '../world/types.js';

type Node = Record<string, unknown>;
type Resolved = Record<string, Record<string, unknown>>;

const MAX_TEXT = 4000;

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionValues(c: Node): string[] {
  return (Array.isArray(c.options) ? c.options : []).map((o) => (isObject(o) ? o.value : undefined)).filter((v): v is string => typeof v === 'string');
}

function defaultOptionValues(c: Node): string[] {
  return (Array.isArray(c.options) ? c.options : []).filter((o) => isObject(o) && o.default === true).map((o) => (o as Node).value as string);
}

function collectCustomIds(node: unknown, out: Set<string>, depth = 0): void {
  if (!isObject(node) || depth > 8) return;
  if (typeof node.custom_id === 'string') out.add(node.custom_id);
  if (Array.isArray(node.components)) for (const child of node.components) collectCustomIds(child, out, depth + 1);
  if (node.component !== undefined) collectCustomIds(node.component, out, depth + 1);
}

/** The responses of a modal's components and the entities they resolve to. */
export function submittedComponents(
  where: string,
  ctx: EmulatorContext,
  components: unknown[],
  values: Record<string, unknown>,
  guild?: GuildRecord,
): { components: unknown[]; resolved: Resolved } {
  const known = new Set<string>();
  for (const c of components) collectCustomIds(c, known);
  for (const key of Object.keys(values)) {
    if (!known.has(key))
      throw argumentError('value', where, `options.values.${key}`, `the custom_id of a component in the modal (${[...known].join(', ')})`, key);
  }
  const resolved: Resolved = {};
  const given = (c: Node): unknown => (Object.hasOwn(values, c.custom_id as string) ? values[c.custom_id as string] : undefined);
  const name = (c: Node): string => `options.values.${String(c.custom_id)}`;

  const counts = (c: Node, list: string[], minDefault: number, maxDefault: number): void => {
    const required = c.required !== false;
    const min = typeof c.min_values === 'number' ? c.min_values : minDefault;
    const max = typeof c.max_values === 'number' ? c.max_values : maxDefault;
    const low = required ? Math.max(min, 1) : 0;
    if (list.length < low || list.length > max) throw argumentError('value', where, name(c), `from ${low} to ${max} values`, list);
  };

  const stringList = (c: Node, fallback: string[]): string[] => {
    const v = given(c);
    if (v === undefined) return fallback;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw argumentError('type', where, name(c), 'an array of strings', v);
    return [...v];
  };

  const answer = (c: Node): Node => {
    const id = c.id as number;
    const customId = c.custom_id as string;
    switch (c.type) {
      case ComponentType.TextInput: {
        const v = given(c) ?? (typeof c.value === 'string' ? c.value : '');
        if (typeof v !== 'string') throw argumentError('type', where, name(c), 'the text typed, a string', v);
        const min = typeof c.min_length === 'number' ? c.min_length : 0;
        const max = typeof c.max_length === 'number' ? c.max_length : MAX_TEXT;
        const low = c.required !== false ? Math.max(min, 1) : v.length === 0 ? 0 : min;
        if (v.length < low || v.length > max) throw argumentError('value', where, name(c), `text of ${low} to ${max} characters`, v);
        return { type: ComponentType.TextInput, id, custom_id: customId, value: v };
      }
      case ComponentType.StringSelect: {
        const list = stringList(c, defaultOptionValues(c));
        const allowed = new Set(optionValues(c));
        if (list.some((v) => !allowed.has(v))) throw argumentError('value', where, name(c), "values among the select's option values", list);
        counts(c, list, 1, 1);
        return { type: ComponentType.StringSelect, id, custom_id: customId, values: list };
      }
      case ComponentType.UserSelect:
      case ComponentType.RoleSelect:
      case ComponentType.MentionableSelect:
      case ComponentType.ChannelSelect: {
        const defaults = (Array.isArray(c.default_values) ? c.default_values : []).map((d) => (isObject(d) ? String(d.id) : ''));
        const list = stringList(c, defaults);
        list.forEach((v, i) => checkSnowflake(where, `${name(c)}[${i}]`, v));
        counts(c, list, 1, 1);
        for (const v of list) {
          const user = ctx.options.users.get(v);
          if ((c.type === ComponentType.UserSelect || c.type === ComponentType.MentionableSelect) && user !== undefined) {
            (resolved.users ??= {})[v] = userJson(user);
            (resolved.members ??= {})[v] = partialMemberJson(
              guild?.members.get(v) ?? { userId: v, roles: [], joinedAt: Date.parse('2025-01-01T00:00:00.000Z') },
            );
          } else if (c.type === ComponentType.RoleSelect || c.type === ComponentType.MentionableSelect)
            (resolved.roles ??= {})[v] = roleJson(guild?.roles.get(v) ?? { id: v, name: `role-${v}`, permissions: 0n, position: 1 });
          else if (c.type === ComponentType.ChannelSelect) {
            const known = ctx.world.channel(v);
            (resolved.channels ??= {})[v] = {
              ...(known === undefined ? { id: v, type: 0, name: `channel-${v}` } : channelJson(known.channel, known.guild)),
              permissions: '0',
            };
          } else throw argumentError('value', where, name(c), 'ids of users given in options.users', list);
        }
        return { type: c.type, id, custom_id: customId, values: list };
      }
      case ComponentType.FileUpload: {
        const files = stringList(c, []);
        if (files.some((f) => f.length < 1 || f.length > 260)) throw argumentError('value', where, name(c), 'file names of 1 to 260 characters', files);
        counts(c, files, 1, 1);
        const ids = files.map((filename) => {
          const attachmentId = ctx.ids.next(ctx.options.clock());
          (resolved.attachments ??= {})[attachmentId] = {
            id: attachmentId,
            filename,
            size: 0,
            url: `https://cdn.example.invalid/ephemeral-attachments/${attachmentId}/${randomBytes(4).toString('hex')}/${encodeURIComponent(filename)}`,
          };
          return attachmentId;
        });
        return { type: ComponentType.FileUpload, id, custom_id: customId, values: ids };
      }
      case ComponentType.RadioGroup: {
        const fallback = defaultOptionValues(c)[0] ?? null;
        const v = given(c) === undefined ? fallback : given(c);
        if (v !== null && typeof v !== 'string') throw argumentError('type', where, name(c), 'the chosen value, a string, or null', v);
        if (v !== null && !optionValues(c).includes(v)) throw argumentError('value', where, name(c), "one of the radio group's option values", v);
        if (v === null && c.required !== false) throw argumentError('value', where, name(c), 'a chosen value (the radio group is required)', v);
        return { type: ComponentType.RadioGroup, id, custom_id: customId, value: v };
      }
      case ComponentType.CheckboxGroup: {
        const list = stringList(c, defaultOptionValues(c));
        const allowed = optionValues(c);
        if (list.some((v) => !allowed.includes(v))) throw argumentError('value', where, name(c), "values among the checkbox group's option values", list);
        if (new Set(list).size !== list.length) throw argumentError('value', where, name(c), 'values without repeats', list);
        counts(c, list, 1, allowed.length);
        return { type: ComponentType.CheckboxGroup, id, custom_id: customId, values: list };
      }
      case ComponentType.Checkbox: {
        const v = given(c) ?? c.default === true;
        if (typeof v !== 'boolean') throw argumentError('type', where, name(c), 'a boolean (checked or not)', v);
        return { type: ComponentType.Checkbox, id, custom_id: customId, value: v };
      }
      case ComponentType.TextDisplay:
        return { type: ComponentType.TextDisplay, id };
      default:
        return { type: c.type, id };
    }
  };

  const out = components.map((c) => {
    if (!isObject(c)) return c;
    if (c.type === ComponentType.Label && isObject(c.component)) return { type: ComponentType.Label, id: c.id, component: answer(c.component) };
    if (c.type === ComponentType.ActionRow && Array.isArray(c.components))
      return { type: ComponentType.ActionRow, id: c.id, components: c.components.filter(isObject).map(answer) };
    return answer(c);
  });
  return { components: out, resolved };
}
