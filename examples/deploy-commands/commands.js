// The game's commands, in one place: the deploy script registers exactly these.
'use strict';

const { SlashCommandBuilder, UserCommandBuilder, PermissionFlags, InteractionContextType } = require('social-sdk-auth/commands');

module.exports = [
  new SlashCommandBuilder('duel', 'Challenge a player to a duel')
    .setNameLocalizations({ de: 'duell', fr: 'duel-fr' })
    .setContexts(InteractionContextType.Guild, InteractionContextType.PrivateChannel)
    .addUserOption('opponent', 'Who to challenge', { required: true })
    .addStringOption('weapon', 'What to fight with', {
      choices: [
        { name: 'Sword', value: 'sword', nameLocalizations: { de: 'Schwert' } },
        { name: 'Bow', value: 'bow' },
      ],
    })
    .addIntegerOption('rounds', 'How many rounds', { minValue: 1, maxValue: 9 })
    .toJSON(),
  new SlashCommandBuilder('leaderboard', 'Shows the best players').addSubcommand('weekly', 'This week').addSubcommand('all-time', 'Since the start').toJSON(),
  new SlashCommandBuilder('reset-season', 'Starts a new season').setDefaultMemberPermissions(PermissionFlags.ManageGuild).toJSON(),
  new UserCommandBuilder('Invite to Party').toJSON(),
];
