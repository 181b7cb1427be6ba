/**
 * The player's side of interactions: build the payloads of the spec's Events table with the
 * common fields, sign them, POST them to the application's interactions endpoint, and wait for
 * the acknowledgement on the HTTP answer or through the callback route, within 3 seconds.
 */
import { ComponentType, SELECT_COMPONENT_TYPES } from '../../rules/components.js';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { checkOptions, checkSnowflake, checkString } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';
import { ALL_PERMISSIONS, hasPermission, PermissionFlags } from '../../rules/permissions.js';
import { canUseCommand } from '../commands/access.js';
import { scopeKey, type CommandRecord } from '../commands/store.js';
import type { EmulatorContext } from '../kernel/context.js';
import type { Grant } from '../oauth/store.js';
import { checkEndpointHref } from '../kernel/options.js';
import type { EmulatorUser } from '../kernel/options.js';
import { channelPermissions } from '../world/permissions.js';
import type { ChannelRecord, GuildRecord } from '../world/types.js';
import { channelJson, partialMemberJson, roleJson, userJson } from '../world/render.js';
import { DEFAULT_PREFERRED_LOCALE } from '../world/world.js';
import { botChannelMessage } from '../world/message.js';
import { applyAck, authorizingOwners, responseProblems } from './acknowledge.js';
import { deliveryFailure, postJson, signatureHeaders } from './deliver.js';
import { EmulatorInteractionError } from './errors.js';
import { submittedComponents } from './modal.js';
import type {
  AutocompleteOptions,
  ClickComponentOptions,
  EmulatorCommandOption,
  EmulatorInteractionResult,
  EmulatorWebhookDelivery,
  InteractionsEndpointCheck,
  InvokeCommandOptions,
  SubmitModalOptions,
} from './types.js';
import {
  ACK_WINDOW_MS,
  interactionWorldOf,
  TOKEN_LIFETIME_MS,
  type Ack,
  type InteractionRecord,
  type InteractionTrigger,
  type InteractionWorld,
} from './world.js';

const JOINED_AT = '2025-01-01T00:00:00.000Z';
const MAX_OPTION_DEPTH = 3;
const MAX_OPTIONS = 25;
/** Webhook events wait this long for the endpoint's 204. */
const WEBHOOK_TIMEOUT_MS = 10_000;

function worldOrThrow(world: InteractionWorld | undefined): InteractionWorld {
  if (world === undefined) throw new Error('The emulator has no interaction state.');
  return world;
}

function knownUser(where: string, ctx: EmulatorContext, name: string, value: unknown): EmulatorUser {
  const id = value === undefined ? ctx.signedInUserId : checkSnowflake(where, name, value);
  const user = ctx.options.users.get(id);
  if (user === undefined)
    throw argumentError('value', where, name, 'the id of a user given in options.users', id, `Known ids: ${[...ctx.options.users.keys()].join(', ')}.`);
  return user;
}

function knownApplication(where: string, ctx: EmulatorContext, value: unknown): string {
  const id = value === undefined ? ctx.options.defaultApplicationId : checkSnowflake(where, 'options.applicationId', value);
  if (!ctx.options.applications.has(id)) {
    throw argumentError(
      'value',
      where,
      'options.applicationId',
      'the id of an application given in options.applications',
      id,
      `Known ids: ${[...ctx.options.applications.keys()].join(', ')}.`,
    );
  }
  return id;
}

function checkLocale(where: string, value: unknown): string {
  const locale = value === undefined ? 'en-US' : checkString(where, 'options.locale', value);
  if (!/^[a-z]{2}(-[A-Za-z0-9]{2,3})?$/.test(locale)) throw argumentError('value', where, 'options.locale', "a locale such as 'en-US' or 'fr'", locale);
  return locale;
}

function checkName(where: string, value: unknown): string {
  const name = checkString(where, 'options.name', value);
  if (name.length < 1 || name.length > 32) throw argumentError('value', where, 'options.name', 'a command name of 1 to 32 characters', name);
  return name;
}

function checkCommandOptions(where: string, name: string, value: unknown, depth = 0): EmulatorCommandOption[] {
  if (!Array.isArray(value)) throw argumentError('type', where, name, 'an array of { name, type, value?, options?, focused? }', value);
  if (value.length > MAX_OPTIONS || depth > MAX_OPTION_DEPTH)
    throw argumentError('value', where, name, `at most ${MAX_OPTIONS} options, nested at most ${MAX_OPTION_DEPTH} deep`, value);
  return value.map((option, i) => {
    const at = `${name}[${i}]`;
    const o = checkOptions(where, option as EmulatorCommandOption, at);
    const out: EmulatorCommandOption = { name: checkString(where, `${at}.name`, o.name, true), type: 0 };
    if (typeof o.type !== 'number' || !Number.isInteger(o.type) || o.type < 1 || o.type > 11)
      throw argumentError('value', where, `${at}.type`, 'an option type from 1 to 11', o.type);
    out.type = o.type;
    if (o.value !== undefined) {
      if (typeof o.value !== 'string' && typeof o.value !== 'number' && typeof o.value !== 'boolean')
        throw argumentError('type', where, `${at}.value`, 'a string, number or boolean', o.value);
      out.value = o.value;
    }
    if (o.options !== undefined) out.options = checkCommandOptions(where, `${at}.options`, o.options, depth + 1);
    if (o.focused !== undefined) {
      if (typeof o.focused !== 'boolean') throw argumentError('type', where, `${at}.focused`, 'a boolean', o.focused);
      out.focused = o.focused;
    }
    return out;
  });
}

function countFocused(options: readonly EmulatorCommandOption[]): number {
  return options.reduce((n, o) => n + (o.focused === true ? 1 : 0) + countFocused(o.options ?? []), 0);
}

export function userObject(user: EmulatorUser): Record<string, unknown> {
  return userJson(user);
}

function memberObject(user: EmulatorUser, permissions?: string, guild?: GuildRecord): Record<string, unknown> {
  const member = guild?.members.get(user.id) ?? { userId: user.id, roles: [], joinedAt: Date.parse(JOINED_AT) };
  return { ...partialMemberJson(member), ...(permissions !== undefined ? { permissions } : {}) };
}

/** Entities the options refer to: known users (with members), and minimal channels and roles. */
function resolvedOf(
  ctx: EmulatorContext,
  options: readonly EmulatorCommandOption[],
  guild: GuildRecord | undefined,
  out: Record<string, Record<string, unknown>> = {},
): Record<string, Record<string, unknown>> {
  for (const option of options) {
    const id = typeof option.value === 'string' ? option.value : undefined;
    if (id !== undefined && (option.type === 6 || option.type === 9)) {
      const user = ctx.options.users.get(id);
      if (user !== undefined) {
        (out.users ??= {})[id] = userObject(user);
        const inGuild = guild?.members.has(id) === true;
        if (inGuild || guild === undefined) (out.members ??= {})[id] = memberObject(user, String(ALL_PERMISSIONS), guild);
      } else if (option.type === 9) (out.roles ??= {})[id] = roleJson({ id, name: `role-${id}`, permissions: 0n, position: 1 });
    }
    if (id !== undefined && option.type === 7) {
      const known = ctx.world.channel(id);
      const rendered = known === undefined ? { id, type: 0, name: `channel-${id}` } : channelJson(known.channel, known.guild);
      (out.channels ??= {})[id] = { ...rendered, permissions: String(ALL_PERMISSIONS) };
    }
    if (id !== undefined && option.type === 8) {
      (out.roles ??= {})[id] = roleJson(guild?.roles.get(id) ?? { id, name: `role-${id}`, permissions: 0n, position: 1 });
    }
    if (option.options !== undefined) resolvedOf(ctx, option.options, guild, out);
  }
  return out;
}

interface Where {
  applicationId: string;
  guild?: GuildRecord;
  channel?: ChannelRecord;
  guildId: string | undefined;
  channelId: string;
  user: EmulatorUser;
  locale: string;
  permissions: string;
  sourceMessageId?: string;
  commandType?: number;
  commandName?: string;
  trigger?: InteractionTrigger;
}

/** The subcommand group and subcommand a slash command's options name, outermost first. */
function subcommandPath(options: unknown): string[] {
  const first = Array.isArray(options) ? (options[0] as { type?: unknown; name?: unknown; options?: unknown } | undefined) : undefined;
  return first !== undefined && (first.type === 1 || first.type === 2) ? [String(first.name), ...subcommandPath(first.options)] : [];
}

/** A new interaction record and the payload's common fields (spec: "Common interaction fields"). */
function begin(ctx: EmulatorContext, world: InteractionWorld, type: number, at: Where): { record: InteractionRecord; common: Record<string, unknown> } {
  const now = ctx.options.clock();
  const id = ctx.ids.next(now);
  // The service's tokens are long opaque strings; this one names its interaction, plus 32 random bytes.
  const token = `${Buffer.from(`interaction:${id}:`).toString('base64url')}${randomBytes(32).toString('base64url')}`;
  const record: InteractionRecord = {
    id,
    token,
    applicationId: at.applicationId,
    type,
    guildId: at.guildId,
    channelId: at.channelId,
    userId: at.user.id,
    sentAt: Date.now(),
    tokenExpiresAt: now + TOKEN_LIFETIME_MS,
    sourceMessageId: at.sourceMessageId,
    commandType: at.commandType,
    commandName: at.commandName,
    trigger: at.trigger,
    ack: undefined,
    originalMessageId: undefined,
    onAck: undefined,
  };
  const common: Record<string, unknown> = {
    id,
    application_id: at.applicationId,
    type,
    token,
    version: 1,
    channel_id: at.channelId,
    channel:
      at.channel !== undefined && at.guild !== undefined
        ? { ...channelJson(at.channel, at.guild), permissions: at.permissions }
        : { id: at.channelId, type: at.channel?.type ?? 0, ...(at.guildId !== undefined ? { guild_id: at.guildId } : {}) },
    app_permissions: String(ALL_PERMISSIONS),
    locale: at.locale,
    entitlements: [],
    attachment_size_limit: 10 * 1024 * 1024,
    authorizing_integration_owners: authorizingOwners(at.guildId, at.user.id),
  };
  if (at.guildId !== undefined) {
    common.guild_id = at.guildId;
    common.guild_locale = at.guild?.preferredLocale ?? DEFAULT_PREFERRED_LOCALE;
    common.member = { ...memberObject(at.user, at.permissions, at.guild), user: userObject(at.user) };
    common.context = 0;
  } else {
    common.user = userObject(at.user);
    common.context = 1;
  }
  return { record, common };
}

function endpointUrlOf(ctx: EmulatorContext, applicationId: string, world?: InteractionWorld): string | undefined {
  return world?.interactionsEndpointUrls.get(applicationId) ?? ctx.options.applications.get(applicationId)?.interactionsEndpointUrl;
}

function endpointOf(ctx: EmulatorContext, applicationId: string, world?: InteractionWorld): string {
  const url = endpointUrlOf(ctx, applicationId, world);
  if (url === undefined) {
    throw new EmulatorInteractionError(
      'no-endpoint',
      `Application ${applicationId} has no interactions endpoint: set interactionsEndpointUrl in options.applications.`,
    );
  }
  return url;
}

/** True when an interaction in `guildId` goes over the gateway: the application has no endpoint, and a session receives the guild's events. */
function viaGateway(ctx: EmulatorContext, applicationId: string, guildId: string | undefined, world: InteractionWorld): boolean {
  return endpointUrlOf(ctx, applicationId, world) === undefined && guildId !== undefined && ctx.gateway?.hasSessionFor(applicationId, guildId) === true;
}

/** Checks that an interaction can reach the application: an interactions endpoint, or a gateway session for the guild. */
function checkReachable(ctx: EmulatorContext, applicationId: string, guildId: string | undefined, world: InteractionWorld): void {
  if (viaGateway(ctx, applicationId, guildId, world)) return;
  const url = endpointUrlOf(ctx, applicationId, world);
  if (url === undefined) {
    throw new EmulatorInteractionError(
      'no-endpoint',
      `Application ${applicationId} has no interactions endpoint: set interactionsEndpointUrl in options.applications, or connect its bot to the emulator's gateway.`,
    );
  }
}

function parseAnswer(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function resultOf(record: InteractionRecord, ack: Ack, message: ReturnType<typeof applyAck>): EmulatorInteractionResult {
  const result: EmulatorInteractionResult = { interactionId: record.id, response: structuredClone(ack.response), via: ack.via };
  if (message !== undefined) result.message = message;
  return result;
}

/**
 * Delivers a signed interaction and resolves with the acknowledgement. Rejects with
 * EmulatorInteractionError when the endpoint refuses it, answers wrongly, or does not acknowledge
 * within 3 seconds.
 */
async function dispatch(
  ctx: EmulatorContext,
  world: InteractionWorld,
  record: InteractionRecord,
  payload: Record<string, unknown>,
): Promise<EmulatorInteractionResult> {
  // An application without an interactions endpoint gets INTERACTION_CREATE over the gateway, when
  // it has a session that receives the guild's events, and answers through the callback route.
  const overGateway = viaGateway(ctx, record.applicationId, record.guildId, world);
  const url = overGateway ? '' : endpointOf(ctx, record.applicationId, world);
  const key = world.keys.get(record.applicationId)!;
  const fromCallback = new Promise<Ack>((resolve) => {
    record.onAck = resolve;
  });
  world.add(record);
  if (overGateway) {
    ctx.gateway!.dispatchToGuild(record.guildId!, 'INTERACTION_CREATE', payload, { applicationId: record.applicationId });
    return awaitCallback(world, record, fromCallback, undefined);
  }
  const body = JSON.stringify(payload);
  const headers = signatureHeaders(key.privateKey, Math.floor(Date.now() / 1000), body);
  const answer = await postJson(url, body, headers, ACK_WINDOW_MS, world.closing.signal);
  const viaCallback = (): EmulatorInteractionResult => resultOf(record, record.ack!, currentMessage(world, record));
  if (record.ack !== undefined) return viaCallback(); // acknowledged through the callback while the HTTP answer was pending
  if ('failed' in answer) {
    throw new EmulatorInteractionError('no-response', `The application did not respond: its interactions endpoint ${deliveryFailure(answer, ACK_WINDOW_MS)}.`);
  }
  if (answer.status < 200 || answer.status > 299) {
    const why = answer.status === 401 ? ' (it refused the signature)' : '';
    throw new EmulatorInteractionError('endpoint-status', `The interactions endpoint answered HTTP ${answer.status}${why}.`, answer.status);
  }
  if (answer.body.trim() !== '') {
    const response = parseAnswer(answer.body);
    const problems = responseProblems(record, response);
    if (problems.length > 0) {
      throw new EmulatorInteractionError(
        'invalid-response',
        `The interactions endpoint answered with an invalid interaction response: ${problems.map((p) => p.message).join(' ')}`,
        answer.status,
      );
    }
    const ack: Ack = { response: structuredClone(response) as Ack['response'], via: 'http' };
    record.onAck = undefined;
    return resultOf(record, ack, applyAck(ctx, world, record, ack));
  }
  // An empty 2xx: the application answers through the callback route, within the window.
  return awaitCallback(world, record, fromCallback, answer.status);
}

/** Waits for the acknowledgement through the callback route, within the 3-second window. */
async function awaitCallback(
  world: InteractionWorld,
  record: InteractionRecord,
  fromCallback: Promise<Ack>,
  status: number | undefined,
): Promise<EmulatorInteractionResult> {
  const viaCallback = (): EmulatorInteractionResult => resultOf(record, record.ack!, currentMessage(world, record));
  if (record.ack !== undefined) return viaCallback();
  const remaining = record.sentAt + ACK_WINDOW_MS - Date.now();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, remaining));
    timer.unref();
    world.closing.signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  const ack = await Promise.race([fromCallback, expired]);
  clearTimeout(timer);
  if (ack === undefined) {
    record.onAck = undefined;
    throw new EmulatorInteractionError(
      'no-response',
      `The application did not respond: nothing acknowledged the interaction within ${ACK_WINDOW_MS} ms.`,
      status,
    );
  }
  return viaCallback();
}

function currentMessage(world: InteractionWorld, record: InteractionRecord): ReturnType<typeof applyAck> {
  if (record.ack === undefined || ![4, 5, 7].includes(record.ack.response.type) || record.originalMessageId === undefined) return undefined;
  const message = world.message(record.originalMessageId);
  return message === undefined ? undefined : structuredClone(message);
}

/** The guild, channel and member an interaction happens in: a guild of the emulator's world, one of its channels, a member. */
function place(
  where: string,
  ctx: EmulatorContext,
  o: { guildId?: unknown; channelId?: unknown; userId?: unknown; applicationId?: unknown; locale?: unknown },
  permissions?: string,
): Where {
  const guildId = checkSnowflake(where, 'options.guildId', o.guildId);
  const guild = ctx.world.guilds.get(guildId);
  if (guild === undefined)
    throw argumentError('value', where, 'options.guildId', 'the id of a guild of this emulator', guildId, 'Create one with emulator.createGuild().');
  let channel: ChannelRecord | undefined;
  if (o.channelId === undefined) {
    channel = [...guild.channels.values()].find((c) => c.type === 0);
    if (channel === undefined)
      throw argumentError('value', where, 'options.channelId', 'a channel of the guild (it has no text channel to default to)', o.channelId);
  } else {
    channel = guild.channels.get(checkSnowflake(where, 'options.channelId', o.channelId));
    if (channel === undefined) throw argumentError('value', where, 'options.channelId', 'the id of a channel of the guild', o.channelId);
  }
  const user = knownUser(where, ctx, 'options.userId', o.userId);
  const inChannel = channelPermissions(guild, channel, user.id);
  if (inChannel === undefined)
    throw argumentError('value', where, 'options.userId', 'a member of the guild', user.id, 'Add one with emulator.setGuildMember().');
  return {
    applicationId: knownApplication(where, ctx, o.applicationId),
    guild,
    channel,
    guildId,
    channelId: channel.id,
    user,
    locale: checkLocale(where, o.locale),
    permissions: permissions ?? String(inChannel),
  };
}

/** Where a follow-up interaction (a click, a modal submission) happens: the first one's guild and channel. */
function inWorld(
  ctx: EmulatorContext,
  guildId: string | undefined,
  channelId: string,
  user: EmulatorUser,
): Pick<Where, 'guild' | 'channel' | 'guildId' | 'channelId' | 'user' | 'permissions'> {
  const guild = guildId === undefined ? undefined : ctx.world.guilds.get(guildId);
  const channel = guild?.channels.get(channelId);
  const bits = guild !== undefined && channel !== undefined ? channelPermissions(guild, channel, user.id) : undefined;
  return {
    guildId,
    channelId,
    user,
    permissions: String(bits ?? 0n),
    ...(guild !== undefined ? { guild } : {}),
    ...(channel !== undefined ? { channel } : {}),
  };
}

/** The registered command of that name and type: the guild's first, then the global one. */
function registeredCommand(where: string, ctx: EmulatorContext, at: Where, type: number, name: string): CommandRecord {
  const find = (guildId: string | undefined): CommandRecord | undefined =>
    ctx.commands.commands(scopeKey(at.applicationId, guildId)).find((c) => c.type === type && c.name === name);
  const command = find(at.guildId) ?? find(undefined);
  if (command === undefined) {
    throw argumentError(
      'value',
      where,
      'options.name',
      `the name of a command of type ${type} the application registered, globally or in the guild`,
      name,
      'Register it with POST /applications/{id}/commands or PUT for a bulk overwrite.',
    );
  }
  return command;
}

/** Whether the member may use the command in the channel, by the guild's permissions and the command's overwrites. */
function mayUse(ctx: EmulatorContext, at: Where, command: CommandRecord): boolean {
  const overwrites = ctx.commands.permissionsOf(scopeKey(at.applicationId, at.guild!.id));
  const dmp = command.default_member_permissions;
  return canUseCommand(
    at.guild!,
    at.channel!,
    at.user.id,
    typeof dmp === 'string' ? dmp : null,
    overwrites.get(command.id) ?? [],
    overwrites.get(at.applicationId) ?? [],
  );
}

export async function invokeCommand(
  ctx: EmulatorContext,
  maybeWorld: InteractionWorld | undefined,
  options: InvokeCommandOptions,
): Promise<EmulatorInteractionResult> {
  const where = 'emulator.invokeCommand';
  const world = worldOrThrow(maybeWorld);
  const o = checkOptions(where, options);
  if (options === undefined) throw argumentError('type', where, 'options', 'an object { guildId, name, … }', options);
  let permissions: string | undefined;
  if (o.permissions !== undefined) {
    permissions = checkString(where, 'options.permissions', o.permissions);
    if (!/^[0-9]{1,20}$/.test(permissions)) throw argumentError('value', where, 'options.permissions', 'permission bits as a decimal string', permissions);
  }
  const at = place(where, ctx, o, permissions);
  const name = checkName(where, o.name);
  const type = o.type ?? 1;
  if (type !== 1 && type !== 2 && type !== 3) throw argumentError('value', where, 'options.type', '1 (slash), 2 (user) or 3 (message)', type);
  checkReachable(ctx, at.applicationId, at.guildId, world);
  const command = registeredCommand(where, ctx, at, type, name);
  if (!mayUse(ctx, at, command)) {
    throw new EmulatorInteractionError(
      'permission-denied',
      `Permission Denied: the user may not use the command "${name}" in this channel (its permissions and overwrites), so it was not delivered.`,
    );
  }
  const data: Record<string, unknown> = { id: command.id, name, type, ...(command.guild_id !== undefined ? { guild_id: command.guild_id } : {}) };
  if (type === 1) {
    if (o.targetId !== undefined) throw argumentError('value', where, 'options.targetId', 'absent for a slash command', o.targetId);
    if (o.options !== undefined) {
      const filled = checkCommandOptions(where, 'options.options', o.options);
      data.options = filled;
      const resolved = resolvedOf(ctx, filled, at.guild);
      if (Object.keys(resolved).length > 0) data.resolved = resolved;
    }
  } else {
    if (o.options !== undefined) throw argumentError('value', where, 'options.options', 'absent for a user or message command', o.options);
    if (type === 2) {
      // The spec: a user without send-message permission gets "Permission Denied" on a user command.
      if (!hasPermission(at.permissions, PermissionFlags.SendMessages) && !hasPermission(at.permissions, PermissionFlags.Administrator)) {
        throw new EmulatorInteractionError(
          'permission-denied',
          'Permission Denied: the user lacks SEND_MESSAGES in the channel, so the user command was not delivered.',
        );
      }
      if (o.targetId === undefined) throw argumentError('type', where, 'options.targetId', 'the id of the user the command is used on', o.targetId);
      const target = knownUser(where, ctx, 'options.targetId', o.targetId);
      data.target_id = target.id;
      const targetPermissions = channelPermissions(at.guild!, at.channel!, target.id);
      data.resolved = { users: { [target.id]: userObject(target) } };
      // A target outside the guild has a user but no member, as on the service.
      if (targetPermissions !== undefined)
        (data.resolved as Record<string, unknown>).members = { [target.id]: memberObject(target, String(targetPermissions), at.guild) };
    } else {
      const targetId = checkSnowflake(where, 'options.targetId', o.targetId);
      const message = world.message(targetId);
      if (message === undefined) throw argumentError('value', where, 'options.targetId', 'the id of a message an interaction response created', targetId);
      data.target_id = targetId;
      data.resolved = { messages: { [targetId]: structuredClone(message) } };
    }
  }
  const { record, common } = begin(ctx, world, 2, { ...at, commandType: type, commandName: [name, ...subcommandPath(data.options)].join(' ') });
  return dispatch(ctx, world, record, { ...common, data });
}

export async function autocomplete(
  ctx: EmulatorContext,
  maybeWorld: InteractionWorld | undefined,
  options: AutocompleteOptions,
): Promise<EmulatorInteractionResult> {
  const where = 'emulator.autocomplete';
  const world = worldOrThrow(maybeWorld);
  if (options === undefined) throw argumentError('type', where, 'options', 'an object { guildId, name, options }', options);
  const o = checkOptions(where, options);
  const at = place(where, ctx, o);
  const name = checkName(where, o.name);
  const filled = checkCommandOptions(where, 'options.options', o.options);
  if (countFocused(filled) !== 1)
    throw argumentError('value', where, 'options.options', 'options with exactly one marked focused: true (the one being typed)', filled);
  checkReachable(ctx, at.applicationId, at.guildId, world);
  const command = registeredCommand(where, ctx, at, 1, name);
  if (!mayUse(ctx, at, command))
    throw new EmulatorInteractionError('permission-denied', `Permission Denied: the user may not use the command "${name}" in this channel.`);
  const { record, common } = begin(ctx, world, 4, at);
  const data = { id: command.id, name, type: 1, ...(command.guild_id !== undefined ? { guild_id: command.guild_id } : {}), options: filled };
  return dispatch(ctx, world, record, { ...common, data });
}

/** Finds the component with `customId` in a message's component tree. */
function findComponent(components: unknown[], customId: string): Record<string, unknown> | undefined {
  const walk = (node: unknown, depth: number): Record<string, unknown> | undefined => {
    if (typeof node !== 'object' || node === null || depth > 8) return undefined;
    const n = node as Record<string, unknown>;
    if (n.custom_id === customId) return n;
    for (const child of [...(Array.isArray(n.components) ? (n.components as unknown[]) : []), n.component, n.accessory]) {
      const found = walk(child, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const c of components) {
    const found = walk(c, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

export async function clickComponent(
  ctx: EmulatorContext,
  maybeWorld: InteractionWorld | undefined,
  options: ClickComponentOptions,
): Promise<EmulatorInteractionResult> {
  const where = 'emulator.clickComponent';
  const world = worldOrThrow(maybeWorld);
  if (options === undefined) throw argumentError('type', where, 'options', 'an object { messageId, customId, values? }', options);
  const o = checkOptions(where, options);
  const messageId = checkSnowflake(where, 'options.messageId', o.messageId);
  const message = world.message(messageId) ?? botChannelMessage(ctx, messageId);
  if (message === undefined)
    throw argumentError('value', where, 'options.messageId', "the id of a message an interaction response created or an application's bot posted", messageId);
  const customId = checkString(where, 'options.customId', o.customId, true);
  const component = findComponent(message.components, customId);
  if (component === undefined) throw argumentError('value', where, 'options.customId', 'the custom_id of a component on the message', customId);
  if (component.disabled === true) throw argumentError('value', where, 'options.customId', 'an enabled component (this one is disabled)', customId);
  const type = component.type as number;
  const data: Record<string, unknown> = { id: component.id, custom_id: customId, component_type: type };
  if (type === ComponentType.Button) {
    if (o.values !== undefined) throw argumentError('value', where, 'options.values', 'absent for a button', o.values);
  } else if (SELECT_COMPONENT_TYPES.has(type)) {
    const values = o.values;
    if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
      throw argumentError('type', where, 'options.values', 'an array of strings (the chosen values)', values);
    const min = typeof component.min_values === 'number' ? component.min_values : 1;
    const max = typeof component.max_values === 'number' ? component.max_values : 1;
    if (values.length < min || values.length > max) throw argumentError('value', where, 'options.values', `from ${min} to ${max} values`, values);
    if (type === ComponentType.StringSelect) {
      const allowed = new Set((Array.isArray(component.options) ? component.options : []).map((opt) => (opt as { value?: unknown }).value));
      const unknown = values.find((v) => !allowed.has(v));
      if (unknown !== undefined) throw argumentError('value', where, 'options.values', "values among the select's option values", values);
    } else {
      values.forEach((v, i) => checkSnowflake(where, `options.values[${i}]`, v));
      // The command option type of what each select picks: a user (6), a role (8), a mentionable (9) or a channel (7).
      const kind = type === ComponentType.UserSelect ? 6 : type === ComponentType.RoleSelect ? 8 : type === ComponentType.MentionableSelect ? 9 : 7;
      data.resolved = resolvedOf(
        ctx,
        values.map((value) => ({ name: 'value', type: kind, value })),
        message.guild_id === undefined ? undefined : ctx.world.guilds.get(message.guild_id),
      );
    }
    data.values = [...values];
  } else {
    throw argumentError('value', where, 'options.customId', 'the custom_id of a button or select', customId);
  }
  const at: Where = {
    ...inWorld(ctx, message.guild_id ?? ctx.world.channel(message.channel_id)?.guild.id, message.channel_id, knownUser(where, ctx, 'options.userId', o.userId)),
    applicationId: message.author.id,
    locale: checkLocale(where, o.locale),
    sourceMessageId: messageId,
  };
  checkReachable(ctx, at.applicationId, at.guildId, world);
  const { record, common } = begin(ctx, world, 3, at);
  return dispatch(ctx, world, record, { ...common, data, message: structuredClone(message) });
}

export async function submitModal(
  ctx: EmulatorContext,
  maybeWorld: InteractionWorld | undefined,
  options: SubmitModalOptions,
): Promise<EmulatorInteractionResult> {
  const where = 'emulator.submitModal';
  const world = worldOrThrow(maybeWorld);
  if (options === undefined) throw argumentError('type', where, 'options', 'an object { customId, values? }', options);
  const o = checkOptions(where, options);
  const applicationId = knownApplication(where, ctx, o.applicationId);
  const user = knownUser(where, ctx, 'options.userId', o.userId);
  const customId = checkString(where, 'options.customId', o.customId, true);
  const modal = world.peekModal(applicationId, user.id, customId);
  if (modal === undefined) throw argumentError('value', where, 'options.customId', 'the custom_id of a modal the application opened for this user', customId);
  const values = o.values === undefined ? {} : checkOptions(where, o.values, 'options.values');
  const { components, resolved } = submittedComponents(
    where,
    ctx,
    modal.components,
    values as Record<string, unknown>,
    modal.guildId === undefined ? undefined : ctx.world.guilds.get(modal.guildId),
  );
  checkReachable(ctx, applicationId, modal.guildId, world);
  world.takeModal(applicationId, user.id, customId);
  const at: Where = {
    ...inWorld(ctx, modal.guildId, modal.channelId, user),
    applicationId,
    locale: checkLocale(where, o.locale),
    ...(modal.sourceMessageId !== undefined ? { sourceMessageId: modal.sourceMessageId } : {}),
    trigger: modal.trigger,
  };
  const { record, common } = begin(ctx, world, 5, at);
  const data: Record<string, unknown> = { custom_id: customId, components };
  if (Object.keys(resolved).length > 0) data.resolved = resolved;
  const payload: Record<string, unknown> = { ...common, data };
  const source = modal.sourceMessageId === undefined ? undefined : world.message(modal.sourceMessageId);
  if (source !== undefined) payload.message = structuredClone(source);
  return dispatch(ctx, world, record, payload);
}

/** The service's endpoint check: a signed PING, a forged one, and a stale one. */
export async function checkInteractionsEndpoint(
  ctx: EmulatorContext,
  maybeWorld: InteractionWorld | undefined,
  applicationId: unknown,
  candidate?: string,
): Promise<InteractionsEndpointCheck> {
  const where = 'emulator.checkInteractionsEndpoint';
  const world = worldOrThrow(maybeWorld);
  const appId = knownApplication(where, ctx, applicationId);
  const url = candidate ?? endpointOf(ctx, appId, world);
  const key = world.keys.get(appId)!;
  const ping = (): string =>
    JSON.stringify({
      id: ctx.ids.next(ctx.options.clock()),
      application_id: appId,
      type: 1,
      token: randomBytes(32).toString('base64url'),
      version: 1,
      app_permissions: String(ALL_PERMISSIONS),
    });
  const now = Math.floor(Date.now() / 1000);
  const valid = ping();
  const good = await postJson(url, valid, signatureHeaders(key.privateKey, now, valid), ACK_WINDOW_MS, world.closing.signal);
  // Signatures can only be checked on an endpoint that answers: say first that it does not.
  if ('failed' in good && good.failed !== 'too-large') {
    return { reachable: false, problem: deliveryFailure(good, ACK_WINDOW_MS), ping: false, forgedRefused: false, staleRefused: false, ok: false };
  }
  const pong = 'status' in good && good.status === 200 && (parseAnswer(good.body) as { type?: unknown } | undefined)?.type === 1;
  const forgedBody = ping();
  const stranger = generateKeyPairSync('ed25519').privateKey;
  const forged = await postJson(url, forgedBody, signatureHeaders(stranger, now, forgedBody), ACK_WINDOW_MS, world.closing.signal);
  const staleBody = ping();
  const stale = await postJson(url, staleBody, signatureHeaders(key.privateKey, now - 600, staleBody), ACK_WINDOW_MS, world.closing.signal);
  const forgedRefused = 'status' in forged && forged.status === 401;
  const staleRefused = 'status' in stale && stale.status === 401;
  return { reachable: true, ping: pong, forgedRefused, staleRefused, ok: pong && forgedRefused && staleRefused };
}

/**
 * Sets an application's interactions endpoint as the service's settings page does: only after
 * the endpoint passes the check (PONG to a signed PING, 401 to a forged and to a stale one).
 */
export async function setInteractionsEndpoint(
  ctx: EmulatorContext,
  maybeWorld: InteractionWorld | undefined,
  url: unknown,
  applicationId: unknown,
): Promise<InteractionsEndpointCheck> {
  const where = 'emulator.setInteractionsEndpoint';
  const world = worldOrThrow(maybeWorld);
  const href = checkEndpointHref(where, 'url', url);
  const appId = knownApplication(where, ctx, applicationId);
  const check = await checkInteractionsEndpoint(ctx, world, appId, href);
  if (!check.reachable) {
    throw new EmulatorInteractionError(
      'endpoint-unreachable',
      `The interactions endpoint was not saved: it ${check.problem}, so its signature checks could not run.`,
    );
  }
  if (!check.ok) {
    const failed = [
      !check.ping && 'a signed PING did not get PONG',
      !check.forgedRefused && 'a forged signature was not refused with 401',
      !check.staleRefused && 'a 10-minute-old timestamp was not refused with 401',
    ]
      .filter(Boolean)
      .join('; ');
    throw new EmulatorInteractionError('endpoint-check', `The interactions endpoint was not saved: ${failed}.`);
  }
  world.interactionsEndpointUrls.set(appId, href);
  return check;
}

/** Sets an application's webhook events URL. */
export function setEventWebhooksUrl(ctx: EmulatorContext, maybeWorld: InteractionWorld | undefined, url: unknown, applicationId: unknown): void {
  const where = 'emulator.setEventWebhooksUrl';
  const world = worldOrThrow(maybeWorld);
  const href = checkEndpointHref(where, 'url', url);
  world.eventWebhooksUrls.set(knownApplication(where, ctx, applicationId), href);
}

/**
 * Revokes a user's grants from outside the application (`emulator.revokeGrantsOf`, the accounts
 * panel): every token of each dies (a refresh answers invalid_grant), and each application that
 * held a live one hears APPLICATION_DEAUTHORIZED.
 */
export function revokeGrants(ctx: EmulatorContext, userId: string, grants: Iterable<Grant>): void {
  const deauthorized = new Set<string>();
  for (const grant of grants) {
    if (!grant.revoked) deauthorized.add(grant.clientId);
    ctx.store.revokeGrant(grant.id);
  }
  deliverDeauthorized(ctx, interactionWorldOf(ctx), userId, deauthorized);
}

/**
 * Delivers `APPLICATION_DEAUTHORIZED` to each application's webhook events URL, in the
 * background; `Emulator.webhookEvents()` waits for them.
 */
export function deliverDeauthorized(ctx: EmulatorContext, world: InteractionWorld | undefined, userId: string, applicationIds: ReadonlySet<string>): void {
  if (world === undefined) return;
  const user = ctx.options.users.get(userId);
  if (user === undefined) return;
  for (const applicationId of applicationIds) {
    const url = world.eventWebhooksUrls.get(applicationId) ?? ctx.options.applications.get(applicationId)?.eventWebhooksUrl;
    const key = world.keys.get(applicationId);
    if (url === undefined || key === undefined) continue;
    const body = JSON.stringify({
      version: 1,
      application_id: applicationId,
      type: 1,
      event: { type: 'APPLICATION_DEAUTHORIZED', timestamp: new Date(ctx.options.clock()).toISOString(), data: { user: userObject(user) } },
    });
    const delivery = postJson(url, body, signatureHeaders(key.privateKey, Math.floor(Date.now() / 1000), body), WEBHOOK_TIMEOUT_MS, world.closing.signal).then(
      (answer): EmulatorWebhookDelivery => ({ applicationId, event: 'APPLICATION_DEAUTHORIZED', userId, status: 'status' in answer ? answer.status : 0 }),
    );
    world.track(delivery);
  }
}

/** Used by the callback route: the interaction acknowledged through `POST /interactions/{id}/{token}/callback`. */
export function acknowledgeByCallback(
  ctx: EmulatorContext,
  world: InteractionWorld,
  record: InteractionRecord,
  response: unknown,
): ReturnType<typeof applyAck> {
  const ack: Ack = { response: structuredClone(response) as Ack['response'], via: 'callback' };
  const message = applyAck(ctx, world, record, ack);
  const notify = record.onAck;
  record.onAck = undefined;
  notify?.(ack);
  return message;
}
