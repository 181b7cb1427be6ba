// The builders as a game backend would use them: each call checked at once, toJSON() a body the
// validator (and so the service) accepts, and every refusal an argument error naming the rule.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';

import {
  ActionRowBuilder,
  ButtonStyle,
  ContainerBuilder,
  MessageBuilder,
  MessageFlags,
  ModalBuilder,
  SectionBuilder,
  SeparatorSpacing,
  TextInputStyle,
  validateMessage,
  validateModal,
} from '../../src/components/index.js';

const rangeError = (pattern: RegExp) => expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(pattern) });
const typeError = (pattern: RegExp) => expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(pattern) });

describe('MessageBuilder', () => {
  it('builds a legacy message of content and action rows', () => {
    const message = new MessageBuilder()
      .setContent('A duel awaits')
      .addActionRow((row) =>
        row
          .addButton({ customId: 'accept', label: 'Accept', style: ButtonStyle.Success })
          .addButton({ customId: 'decline', label: 'Decline', style: ButtonStyle.Danger, emoji: { name: '✖️' } })
          .addButton({ url: 'https://example.com/rules', label: 'Rules' }),
      )
      .addActionRow(
        new ActionRowBuilder().setStringSelect(
          'weapon',
          [
            { label: 'Sword', value: 'sword', default: true },
            { label: 'Bow', value: 'bow' },
          ],
          { placeholder: 'Weapon' },
        ),
      )
      .toJSON();
    expect(message).toEqual({
      content: 'A duel awaits',
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 3, custom_id: 'accept', label: 'Accept' },
            { type: 2, style: 4, custom_id: 'decline', label: 'Decline', emoji: { name: '✖️' } },
            { type: 2, style: 5, url: 'https://example.com/rules', label: 'Rules' },
          ],
        },
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: 'weapon',
              options: [
                { label: 'Sword', value: 'sword', default: true },
                { label: 'Bow', value: 'bow' },
              ],
              placeholder: 'Weapon',
            },
          ],
        },
      ],
    });
    expect(validateMessage(message)).toEqual({ ok: true, errors: [] });
  });

  it('builds a V2 message of every content and layout component', () => {
    const message = new MessageBuilder({ componentsV2: true, ephemeral: true })
      .addText('# Match report')
      .addSection((section) => section.addText('Winner: **Ada**').addText('Score 3–1').setThumbnail({ url: 'attachment://ada.png', description: 'Ada' }))
      .addContainer((container) =>
        container
          .setAccentColor(0x5865f2)
          .addText('Highlights')
          .addMediaGallery([{ url: 'https://cdn.example.com/1.png' }, { url: 'attachment://2.gif', description: 'Final blow', spoiler: true }])
          .addSeparator({ divider: false, spacing: SeparatorSpacing.Large })
          .addFile('attachment://replay.bin', { spoiler: true })
          .addActionRow((row) => row.addButton({ customId: 'rematch', label: 'Rematch' }))
          .addSection((section) => section.addText('Share').setButton({ url: 'https://example.com/share', label: 'Open' })),
      )
      .addSeparator()
      .addActionRow((row) => row.setRoleSelect('team', { placeholder: 'Team' }))
      .toJSON();
    expect(message.flags).toBe(MessageFlags.IsComponentsV2 | MessageFlags.Ephemeral);
    expect(message.components?.map((c) => c.type)).toEqual([10, 9, 17, 14, 1]);
    expect(message.components?.[2]).toMatchObject({
      type: 17,
      accent_color: 0x5865f2,
      components: [
        { type: 10, content: 'Highlights' },
        {
          type: 12,
          items: [{ media: { url: 'https://cdn.example.com/1.png' } }, { media: { url: 'attachment://2.gif' }, description: 'Final blow', spoiler: true }],
        },
        { type: 14, divider: false, spacing: 2 },
        { type: 13, file: { url: 'attachment://replay.bin' }, spoiler: true },
        { type: 1, components: [{ type: 2, style: 1, custom_id: 'rematch', label: 'Rematch' }] },
        { type: 9, accessory: { type: 2, style: 5, url: 'https://example.com/share', label: 'Open' } },
      ],
    });
    expect(validateMessage(message)).toEqual({ ok: true, errors: [] });
    expect(() => new MessageBuilder().addContainer((c) => c.addText('x'))).toThrow(rangeError(/COMPONENT_TYPE_INVALID/));
    expect(() => new ContainerBuilder().addActionRow('row' as never)).toThrow(
      typeError(/row must be a builder, a function that fills one, or a component object/),
    );
  });

  it('refuses what a legacy message cannot hold, naming the rule', () => {
    expect(() => new MessageBuilder().addText('no flag')).toThrow(
      rangeError(/^MessageBuilder\.addText: components\[0\]\.type must be valid \(COMPONENT_TYPE_INVALID\).*IS_COMPONENTS_V2/),
    );
    expect(() => new MessageBuilder({ componentsV2: true }).setContent('hi')).toThrow(rangeError(/content must be valid \(COMPONENT_FIELD_NOT_ALLOWED\)/));
    const message = new MessageBuilder();
    for (let i = 0; i < 5; i++) message.addActionRow((row) => row.addButton({ customId: `b${i}`, label: `${i}` }));
    expect(() => message.addActionRow((row) => row.addButton({ customId: 'b5', label: '5' }))).toThrow(
      rangeError(/components must be valid \(BASE_TYPE_MAX_LENGTH\)/),
    );
    expect(() => message.setContent('x'.repeat(4001))).toThrow(rangeError(/content must be valid \(BASE_TYPE_BAD_LENGTH\); received a string of length 4001/));
    expect(message.toJSON().components).toHaveLength(5);
  });

  it('refuses a custom_id used twice in one message', () => {
    const message = new MessageBuilder().addActionRow((row) => row.addButton({ customId: 'go', label: 'Go' }));
    expect(() => message.addActionRow((row) => row.setUserSelect('go'))).toThrow(
      rangeError(/components\[1\]\.components\[0\]\.custom_id must be valid \(COMPONENT_CUSTOM_ID_DUPLICATED\)/),
    );
  });

  it('refuses a V2 message past 40 components', () => {
    const message = new MessageBuilder({ componentsV2: true });
    for (let i = 0; i < 40; i++) message.addText(`line ${i}`);
    expect(() => message.addText('one more')).toThrow(rangeError(/COMPONENT_MAX_TOTAL_EXCEEDED/));
    expect(validateMessage(message.toJSON()).ok).toBe(true);
  });

  it('refuses bad options with argument errors', () => {
    expect(() => new MessageBuilder({ componentsV2: 'yes' } as never)).toThrow(typeError(/^MessageBuilder: options\.componentsV2 must be a boolean/));
    expect(() => new MessageBuilder({ v2: true } as never)).toThrow(rangeError(/options\.v2 must be one of the known settings/));
    expect(() => new MessageBuilder(5 as never)).toThrow(typeError(/options must be an object/));
  });
});

describe('ActionRowBuilder', () => {
  it('holds up to five buttons or exactly one select', () => {
    const row = new ActionRowBuilder();
    for (let i = 0; i < 5; i++) row.addButton({ customId: `b${i}`, label: 'B' });
    expect(() => row.addButton({ customId: 'b5', label: 'B' })).toThrow(
      rangeError(/^ActionRowBuilder\.addButton: components must be valid \(BASE_TYPE_MAX_LENGTH\)/),
    );
    const select = new ActionRowBuilder().setChannelSelect('where', { channelTypes: [0, 2], minValues: 1, maxValues: 2 });
    expect(() => select.addButton({ customId: 'b', label: 'B' })).toThrow(rangeError(/COMPONENT_LAYOUT_WIDTH_EXCEEDED/));
    expect(select.toJSON()).toEqual({ type: 1, components: [{ type: 8, custom_id: 'where', channel_types: [0, 2], min_values: 1, max_values: 2 }] });
  });

  it('applies the button style rules', () => {
    const row = new ActionRowBuilder();
    expect(() => row.addButton({ customId: 'x' })).toThrow(rangeError(/components\[0\] must be valid \(BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED\)/));
    expect(() => row.addButton({ label: 'x' })).toThrow(rangeError(/components\[0\]\.custom_id must be valid \(BASE_TYPE_REQUIRED\)/));
    expect(() => row.addButton({ url: 'https://example.com', customId: 'x', label: 'x' })).toThrow(
      rangeError(/custom_id must be valid \(COMPONENT_FIELD_NOT_ALLOWED\)/),
    );
    expect(() => row.addButton({ skuId: '123', label: 'Buy' })).toThrow(rangeError(/label must be valid \(COMPONENT_FIELD_NOT_ALLOWED\).*Premium/));
    expect(() => row.addButton({ url: 'ftp://example.com', label: 'x' })).toThrow(rangeError(/URL_TYPE_INVALID_URL/));
    expect(() => row.addButton({ customId: 'x', label: 5 as never })).toThrow(typeError(/label must be valid \(STRING_TYPE_CONVERT\); received the number 5/));
    row.addButton({ skuId: '1180218955160375406' });
    expect(row.toJSON().components).toEqual([{ type: 2, style: 6, sku_id: '1180218955160375406' }]);
  });

  it('refuses an empty row only when it is finished', () => {
    const row = new ActionRowBuilder();
    expect(() => row.toJSON()).toThrow(rangeError(/^ActionRowBuilder\.toJSON: components must be valid \(BASE_TYPE_MIN_LENGTH\)/));
    expect(() => new MessageBuilder().addActionRow(new ActionRowBuilder())).toThrow(
      rangeError(/components\[0\]\.components must be valid \(BASE_TYPE_MIN_LENGTH\)/),
    );
  });

  it('refuses unknown settings and values the select rules refuse', () => {
    expect(() => new ActionRowBuilder().addButton({ customId: 'x', label: 'x', colour: 'red' } as never)).toThrow(
      rangeError(/button\.colour must be one of the known settings/),
    );
    expect(() => new ActionRowBuilder().setStringSelect('s', [{ label: 'a', value: 'a' }], { maxValues: 2 })).toThrow(
      rangeError(/max_values must be valid \(COMPONENT_VALUES_EXCEED_OPTIONS\)/),
    );
    expect(() => new ActionRowBuilder().setUserSelect('u', { defaultValues: [{ id: '1', type: 'role' }] })).toThrow(
      rangeError(/default_values\[0\]\.type must be valid \(BASE_TYPE_CHOICES\)/),
    );
    expect(() => new ActionRowBuilder().setStringSelect('s', 'a' as never)).toThrow(typeError(/options must be an array/));
  });
});

describe('SectionBuilder and ContainerBuilder', () => {
  it('need their parts before they are added or finished', () => {
    const section = new SectionBuilder().addText('Alone');
    expect(() => section.toJSON()).toThrow(rangeError(/SectionBuilder\.toJSON: accessory must be valid \(BASE_TYPE_REQUIRED\)/));
    expect(() => new ContainerBuilder().addSection(section)).toThrow(rangeError(/components\[0\]\.accessory must be valid \(BASE_TYPE_REQUIRED\)/));
    section.addText('two').addText('three');
    expect(() => section.addText('four')).toThrow(rangeError(/components must be valid \(BASE_TYPE_MAX_LENGTH\)/));
    section.setThumbnail({ url: 'https://cdn.example.com/a.png' });
    expect(new ContainerBuilder().addSection(section).toJSON().components[0]).toEqual({
      type: 9,
      components: [
        { type: 10, content: 'Alone' },
        { type: 10, content: 'two' },
        { type: 10, content: 'three' },
      ],
      accessory: { type: 11, media: { url: 'https://cdn.example.com/a.png' } },
    });
  });

  it('check colours, files and galleries', () => {
    const container = new ContainerBuilder().addText('x');
    expect(() => container.setAccentColor(0x1000000)).toThrow(rangeError(/accent_color must be valid \(NUMBER_TYPE_MAX\)/));
    expect(() => container.addFile('https://cdn.example.com/a.pdf')).toThrow(rangeError(/file\.url must be valid \(URL_TYPE_INVALID_URL\)/));
    expect(() => container.addMediaGallery([])).toThrow(rangeError(/items must be valid \(BASE_TYPE_MIN_LENGTH\)/));
    expect(() => container.addMediaGallery('x' as never)).toThrow(typeError(/items must be an array/));
    expect(() => container.setSpoiler('yes' as never)).toThrow(typeError(/spoiler must be valid \(BOOLEAN_TYPE_COERCE\)/));
    expect(container.setAccentColor(null).setSpoiler(true).toJSON()).toEqual({
      type: 17,
      components: [{ type: 10, content: 'x' }],
      accent_color: null,
      spoiler: true,
    });
  });
});

describe('ModalBuilder', () => {
  it('builds a modal of every interactive type in Labels', () => {
    const modal = new ModalBuilder('signup', 'Join the guild')
      .addText('Tell us about you.')
      .addTextInput({ label: 'Name', description: 'As shown in game' }, 'name', { minLength: 2, maxLength: 32 })
      .addTextInput('Bio', 'bio', { style: TextInputStyle.Paragraph, required: false })
      .addStringSelect('Class', 'class', [
        { label: 'Mage', value: 'mage' },
        { label: 'Rogue', value: 'rogue' },
      ])
      .addUserSelect('Referrer', 'referrer', { required: false, minValues: 0 })
      .addRoleSelect('Role', 'role')
      .addMentionableSelect('Notify', 'notify', { maxValues: 3 })
      .addChannelSelect('Channel', 'channel', { channelTypes: [0] })
      .addFileUpload('Screenshot', 'shot', { maxValues: 3 })
      .addRadioGroup('Region', 'region', [
        { label: 'EU', value: 'eu', default: true },
        { label: 'NA', value: 'na' },
      ])
      .addCheckboxGroup(
        'Play times',
        'times',
        [
          { label: 'Mornings', value: 'am' },
          { label: 'Evenings', value: 'pm' },
        ],
        { minValues: 0, required: false },
      )
      .addCheckbox('I accept the rules', 'rules', { default: false })
      .toJSON();
    expect(validateModal(modal)).toEqual({ ok: true, errors: [] });
    expect(modal.components[1]).toEqual({
      type: 18,
      label: 'Name',
      description: 'As shown in game',
      component: { type: 4, custom_id: 'name', min_length: 2, max_length: 32, style: 1 },
    });
    expect(modal.components.map((c) => (c.type === 18 ? c.component.type : c.type))).toEqual([10, 4, 4, 3, 5, 6, 7, 8, 19, 21, 22, 23]);
  });

  it('refuses what the modal rules refuse', () => {
    const modal = new ModalBuilder('m', 'Title');
    expect(() => modal.addUserSelect('Who', 'who', { disabled: true } as never)).toThrow(
      rangeError(/components\[0\]\.component\.disabled must be valid \(COMPONENT_FIELD_NOT_ALLOWED\)/),
    );
    expect(() => modal.addStringSelect('Pick', 'pick', [{ label: 'a', value: 'a' }], { minValues: 0 })).toThrow(
      rangeError(/COMPONENT_REQUIRED_MIN_VALUES_INVALID/),
    );
    expect(() => modal.addRadioGroup('One', 'one', [{ label: 'a', value: 'a' }])).toThrow(rangeError(/options must be valid \(BASE_TYPE_MIN_LENGTH\)/));
    expect(() => modal.addTextInput('x'.repeat(46), 'long')).toThrow(rangeError(/components\[0\]\.label must be valid \(BASE_TYPE_BAD_LENGTH\)/));
    expect(() => modal.addCheckbox('Agree', 'agree', { required: true } as never)).toThrow(rangeError(/settings\.required must be one of the known settings/));
    expect(() => modal.addTextInput(5 as never, 'x')).toThrow(typeError(/^ModalBuilder\.addTextInput: label must be a string, or \{ label, description\? \}/));
    modal.addTextInput('A', 'same');
    expect(() => modal.addCheckbox('B', 'same')).toThrow(rangeError(/COMPONENT_CUSTOM_ID_DUPLICATED/));
    expect(() => new ModalBuilder('m', 'x'.repeat(46))).toThrow(rangeError(/^ModalBuilder\.setTitle: title must be valid \(BASE_TYPE_BAD_LENGTH\)/));
    expect(modal.toJSON().components).toHaveLength(1);
  });

  it('needs a custom_id, a title and a component when finished', () => {
    expect(() => new ModalBuilder().toJSON()).toThrow(rangeError(/^ModalBuilder\.toJSON: custom_id must be valid \(BASE_TYPE_REQUIRED\)/));
    expect(() => new ModalBuilder('m').toJSON()).toThrow(rangeError(/title must be valid \(BASE_TYPE_REQUIRED\)/));
    expect(() => new ModalBuilder('m', 't').toJSON()).toThrow(rangeError(/components must be valid \(BASE_TYPE_MIN_LENGTH\)/));
    expect(new ModalBuilder().setTitle('t').setCustomId('m').addText('hi').toJSON()).toEqual({
      components: [{ type: 10, content: 'hi' }],
      title: 't',
      custom_id: 'm',
    });
  });
});

describe('builder objects', () => {
  it('keep their state private, hand out copies, and print as their JSON', () => {
    const row = new ActionRowBuilder().addButton({ customId: 'a', label: 'A' });
    expect(Object.keys(row)).toEqual([]);
    const json = row.toJSON();
    json.components.push({ type: 2, style: 1, custom_id: 'b', label: 'B' });
    expect(row.toJSON().components).toHaveLength(1);
    expect(inspect(row)).toBe('ActionRowBuilder {"type":1,"components":[{"type":2,"custom_id":"a","label":"A","style":1}]}');
    expect(JSON.parse(JSON.stringify({ components: [row] }))).toEqual({ components: [row.toJSON()] });
  });

  it('copy settings, so changing them later changes nothing', () => {
    const emoji = { name: '⭐' };
    const row = new ActionRowBuilder().addButton({ customId: 'a', emoji });
    emoji.name = 'x'.repeat(100);
    expect(validateMessage({ components: [row.toJSON()] }).ok).toBe(true);
  });
});
