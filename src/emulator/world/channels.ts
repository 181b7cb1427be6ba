/** The world's channel route, shared by the areas' route tables: `GET /channels/{id}`. */
import { errorBody, JsonErrorCode } from '../../rules/errors.js';
import { PermissionFlags } from '../../rules/permissions.js';
import type { EmulatorContext } from '../kernel/context.js';
import { isPathId, json, type Reply } from '../kernel/http.js';
import { botChannelPermissions } from './permissions.js';
import { channelJson } from './render.js';

/**
 * `GET /channels/{id}` (bot): a channel of a guild of the world, as its type carries it. 404
 * Unknown Channel for an id that names none; 403 Missing Access when the bot may not view it.
 */
export function getChannel(ctx: EmulatorContext, applicationId: string, channelId: string): Reply {
  const found = isPathId(channelId) ? ctx.world.channel(channelId) : undefined;
  if (found === undefined) return json(404, errorBody(JsonErrorCode.UnknownChannel));
  const bits = botChannelPermissions(found.guild, found.channel, applicationId);
  if ((bits & PermissionFlags.ViewChannel) === 0n) return json(403, errorBody(JsonErrorCode.MissingAccess));
  return json(200, channelJson(found.channel, found.guild));
}
