/**
 * A player's reaction added or removed (`emulator.addReaction` / `removeReaction`, the web client's
 * reaction buttons): the one check of the options, then the reactions area's operation.
 */
import { checkOptions, checkSnowflake, checkString } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';
import { JsonErrorCode } from '../../rules/errors.js';
import type { EmulatorContext } from '../kernel/context.js';
import { findChannelMessage } from './answer.js';
import { addReaction, parseReactionEmoji, removeReaction } from './reactions.js';

export interface PlayerReaction {
  channelId: string;
  messageId: string;
  emoji: string;
  userId: string;
}

/** Checks `options` (naming `where` in errors); `beforeChange` runs once they are good (the emulator's closed check). */
export function playerReaction(ctx: EmulatorContext, where: string, options: unknown, add: boolean, beforeChange: () => void = () => undefined): void {
  const o = checkOptions(where, options as Partial<PlayerReaction> | undefined);
  const channelId = checkSnowflake(where, 'options.channelId', o.channelId);
  const found = ctx.world.channel(channelId);
  if (found === undefined) throw argumentError('value', where, 'options.channelId', 'the id of a channel of a guild of this emulator', channelId);
  const messageId = checkSnowflake(where, 'options.messageId', o.messageId);
  if (findChannelMessage(ctx, channelId, messageId) === undefined)
    throw argumentError('value', where, 'options.messageId', 'the id of a message of the channel', messageId);
  const emoji = checkString(where, 'options.emoji', o.emoji);
  if (parseReactionEmoji(emoji) === undefined)
    throw argumentError('value', where, 'options.emoji', "a Unicode emoji (such as '👍') or a custom emoji as 'name:id'", emoji);
  const userId = checkString(where, 'options.userId', o.userId);
  if (!found.guild.members.has(userId))
    throw argumentError('value', where, 'options.userId', "the user id of a member of the channel's guild", userId, 'Add one with emulator.setGuildMember().');
  beforeChange();
  const result = add ? addReaction(ctx, channelId, messageId, emoji, userId) : removeReaction(ctx, channelId, messageId, emoji, userId);
  if (result.ok) return;
  if (result.code === JsonErrorCode.MaximumReactions)
    throw argumentError('value', where, 'options.emoji', 'an emoji the message already has: it has 20 different reactions, the most the service allows', emoji);
  throw argumentError(
    'value',
    where,
    'options.userId',
    'a member who may react in the channel (VIEW_CHANNEL, READ_MESSAGE_HISTORY, and ADD_REACTIONS for an emoji not on the message yet)',
    userId,
    'Give the member a role with those permissions.',
  );
}
