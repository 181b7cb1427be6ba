// The emulator's web client. Every piece of data is put in the page with textContent or as an
// attribute value, never parsed as markup; the page's Content-Security-Policy allows no inline script.
// ComponentType (the names of src/rules/components.ts) is put ahead of this file when it is served
// (web/router.ts), so component types are named here as everywhere else.
/* global ComponentType */
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  let world = { users: [], guilds: [], commands: [], requests: [], signedInUserId: '' };
  const here = /^\/channels\/(\d+)\/(\d+)$/.exec(location.pathname);
  const guildId = here ? here[1] : undefined;
  const channelId = here ? here[2] : undefined;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = String(v);
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else if (k in node && typeof v !== 'string') node[k] = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const child of children.flat()) if (child !== undefined && child !== null) node.append(child);
    return node;
  }
  /** A URL the page may point at: http(s) only (no javascript:, data: or other schemes). */
  function safeUrl(url) {
    try {
      const u = new URL(String(url), location.href);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
    } catch {
      return undefined;
    }
  }
  async function api(path, body) {
    const res = await fetch(
      '/web/' + path,
      body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    );
    const data = await res.json();
    // An action's failure has `error`; a refusal before it ran (guard, body) the service's `message`.
    if (!res.ok) throw Object.assign(new Error(data.error ?? data.message), data);
    return data;
  }
  const userId = () => $('user').value || world.users[0]?.id;
  /** A user as the service's clients name them: the display name (global_name), else the username. */
  const displayName = (u) => (u && (u.global_name || u.username)) || 'unknown';
  // "Playing as" is kept across pages and reloads: ?as= in the address wins, then the last choice.
  const PLAYING_AS = 'emulator.playingAs';
  function playingAs() {
    const wanted = new URLSearchParams(location.search).get('as') || localStorage.getItem(PLAYING_AS);
    return world.users.some((u) => u.id === wanted) ? wanted : world.users[0]?.id;
  }

  // Markdown, the basic part: headings, quotes, bold, italic, underline, strike, code, links.
  function inline(text) {
    const out = [];
    const re = /(\*\*[^*]+\*\*|__[^_]+__|\*[^*\s][^*]*\*|~~[^~]+~~|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/g;
    let last = 0;
    for (let m; (m = re.exec(text));) {
      if (m.index > last) out.push(text.slice(last, m.index));
      const t = m[0];
      if (t.startsWith('**')) out.push(el('strong', { text: t.slice(2, -2) }));
      else if (t.startsWith('__')) out.push(el('u', { text: t.slice(2, -2) }));
      else if (t.startsWith('~~')) out.push(el('s', { text: t.slice(2, -2) }));
      else if (t.startsWith('`')) out.push(el('code', { text: t.slice(1, -1) }));
      else if (t.startsWith('[')) {
        const [, label, url] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(t);
        const href = safeUrl(url);
        out.push(href ? el('a', { href, rel: 'noopener noreferrer', target: '_blank', text: label }) : t);
      } else out.push(el('em', { text: t.slice(1, -1) }));
      last = m.index + t.length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }
  function markdown(text) {
    const box = el('div', { class: 'content' });
    String(text)
      .split('\n')
      .forEach((line, i) => {
        if (i > 0) box.append('\n');
        const h = /^(#{1,3}) (.*)$/.exec(line);
        if (h) box.append(el('h' + (h[1].length + 2), {}, inline(h[2])));
        else if (line.startsWith('> ')) box.append(el('blockquote', {}, inline(line.slice(2))));
        else box.append(...inline(line));
      });
    return box;
  }
  function spoiler(node, on) {
    if (!on) return node;
    node.classList.add('spoiler');
    node.tabIndex = 0;
    node.setAttribute('aria-label', 'Spoiler: select to show');
    node.addEventListener('click', () => node.classList.add('shown'));
    return node;
  }
  function media(item, alt) {
    const src = safeUrl(item && item.media && item.media.url);
    return src
      ? el('img', { src, alt: alt || '', loading: 'lazy' })
      : el('span', { class: 'note', text: '[media: ' + String(item && item.media && item.media.url) + ']' });
  }

  // Components, messages and modals alike.
  const ENTITY_SELECTS = {
    [ComponentType.UserSelect]: 'user',
    [ComponentType.RoleSelect]: 'role',
    [ComponentType.MentionableSelect]: 'mentionable',
    [ComponentType.ChannelSelect]: 'channel',
  };
  function entityOptions(type) {
    const guild = world.guilds.find((g) => g.id === guildId) || world.guilds[0];
    const users = world.users.map((u) => ({ value: u.id, label: '@' + displayName(u) }));
    const roles = guild ? (guild.roles || []).map((r) => ({ value: r.id, label: '@' + r.name })) : [];
    const channels = guild ? guild.channels.map((c) => ({ value: c.id, label: '#' + c.name })) : [];
    return type === ComponentType.UserSelect
      ? users
      : type === ComponentType.RoleSelect
        ? roles
        : type === ComponentType.ChannelSelect
          ? channels
          : [...users, ...roles];
  }
  function selectOf(c, inModal) {
    const type = c.type;
    const options =
      type === ComponentType.StringSelect
        ? (c.options || []).map((o) => ({ value: o.value, label: o.label, description: o.description, default: o.default === true }))
        : entityOptions(type).map((o) => ({ ...o, default: (c.default_values || []).some((d) => d.id === o.value) }));
    const max = c.max_values ?? (type === ComponentType.CheckboxGroup ? options.length : 1);
    const select = el('select', {
      'data-custom-id': c.custom_id,
      'aria-label': c.placeholder || (ENTITY_SELECTS[type] ? 'Choose a ' + ENTITY_SELECTS[type] : 'Choose an option'),
      disabled: c.disabled === true,
      multiple: max > 1,
    });
    if (max <= 1)
      select.append(el('option', { value: '', text: c.placeholder || 'Make a selection', disabled: true, selected: !options.some((o) => o.default) }));
    for (const o of options) select.append(el('option', { value: o.value, text: o.label + (o.description ? ' — ' + o.description : ''), selected: o.default }));
    if (!inModal)
      select.addEventListener('change', () =>
        act('click', {
          messageId: select.closest('[data-message-id]').dataset.messageId,
          customId: c.custom_id,
          values: [...select.selectedOptions].map((o) => o.value).filter((v) => v !== ''),
        }),
      );
    return select;
  }
  function button(c) {
    const label = (c.emoji && c.emoji.name ? c.emoji.name + ' ' : '') + (c.label ?? '');
    if (c.style === 5) {
      const href = safeUrl(c.url);
      return href && !c.disabled
        ? el('a', { class: 'btn s5', href, rel: 'noopener noreferrer', target: '_blank', text: label + ' ↗' })
        : el('button', { class: 'btn s5', disabled: true, text: label + ' ↗' });
    }
    if (c.style === 6)
      return el('button', {
        class: 'btn s6',
        disabled: c.disabled === true,
        text: 'Premium ' + (label || 'purchase') + (c.sku_id ? ' (SKU ' + c.sku_id + ')' : ''),
      });
    const b = el('button', { class: 'btn s' + (c.style || 2), disabled: c.disabled === true, 'data-custom-id': c.custom_id, text: label || '\u200b' });
    b.addEventListener('click', () => act('click', { messageId: b.closest('[data-message-id]').dataset.messageId, customId: c.custom_id }));
    return b;
  }
  function component(c, inModal) {
    switch (c && c.type) {
      case ComponentType.ActionRow:
        return el(
          'div',
          { class: 'row', role: 'group' },
          (c.components || []).map((x) => component(x, inModal)),
        );
      case ComponentType.Button:
        return button(c);
      case ComponentType.StringSelect:
      case ComponentType.UserSelect:
      case ComponentType.RoleSelect:
      case ComponentType.MentionableSelect:
      case ComponentType.ChannelSelect:
        return selectOf(c, inModal);
      case ComponentType.Section:
        return el(
          'div',
          { class: 'section' },
          el(
            'div',
            {},
            (c.components || []).map((x) => component(x, inModal)),
          ),
          c.accessory ? component(c.accessory, inModal) : undefined,
        );
      case ComponentType.TextDisplay:
        return markdown(c.content ?? '');
      case ComponentType.Thumbnail:
        return spoiler(el('div', { class: 'thumbnail' }, media(c, c.description)), c.spoiler === true);
      case ComponentType.MediaGallery:
        return el(
          'div',
          { class: 'gallery' },
          (c.items || []).map((item) => spoiler(el('div', {}, media(item, item.description)), item.spoiler === true)),
        );
      case ComponentType.File:
        return spoiler(
          el(
            'div',
            { class: 'file' },
            el('span', { 'aria-hidden': 'true', text: '📄' }),
            el('span', { text: c.name ?? String(c.file && c.file.url).replace(/^attachment:\/\//, '') }),
            el('span', { class: 'note', text: c.size !== undefined ? size(c.size) : '' }),
          ),
          c.spoiler === true,
        );
      case ComponentType.Separator:
        return el('hr', { class: 'separator' + (c.divider === false ? '' : ' divider') + (c.spacing === 2 ? ' large' : '') });
      case ComponentType.Container: {
        const box = el(
          'div',
          { class: 'container' },
          (c.components || []).map((x) => component(x, inModal)),
        );
        if (typeof c.accent_color === 'number') box.style.borderLeftColor = '#' + c.accent_color.toString(16).padStart(6, '0');
        return spoiler(box, c.spoiler === true);
      }
      default:
        return el('div', { class: 'note', text: '[component type ' + String(c && c.type) + ']' });
    }
  }
  function size(bytes) {
    return bytes < 1024 ? bytes + ' bytes' : bytes < 1048576 ? (bytes / 1024).toFixed(1) + ' KB' : (bytes / 1048576).toFixed(1) + ' MB';
  }
  /** What the note above an interaction's message says: the command by name, a component, or a modal. */
  function usedWhat(m) {
    const meta = m.interaction_metadata;
    const who = displayName(meta.user);
    if (meta.type === 5) return who + ' submitted a modal';
    if (meta.type === 3) return who + ' used a component';
    return who + (m.interaction && m.interaction.name ? ' used /' + m.interaction.name : ' used a command');
  }
  /** The message's reactions (each a toggle: pressed when the player reacted), then a few emoji to add. */
  const QUICK_EMOJI = ['👍', '❤️', '😂', '🎉'];
  function reactions(m) {
    const have = m.reactions || [];
    const nameOf = (r) => (r.emoji.id ? r.emoji.name + ':' + r.emoji.id : r.emoji.name);
    const toggle = (emoji, on) => act('react', { channelId: m.channel_id, messageId: m.id, emoji, add: !on });
    return el(
      'div',
      { class: 'reactions', role: 'group', 'aria-label': 'Reactions' },
      have.map((r) =>
        el('button', {
          type: 'button',
          class: 'reaction',
          'aria-pressed': r.me ? 'true' : 'false',
          'aria-label': nameOf(r) + ' ' + r.count + (r.me ? ', yours' : ''),
          text: (r.emoji.id ? ':' + r.emoji.name + ':' : r.emoji.name) + ' ' + r.count,
          onclick: () => toggle(nameOf(r), r.me),
        }),
      ),
      QUICK_EMOJI.filter((e) => !have.some((r) => !r.emoji.id && r.emoji.name === e)).map((e) =>
        el('button', { type: 'button', class: 'reaction react', 'aria-label': 'React with ' + e, text: '+' + e, onclick: () => toggle(e, false) }),
      ),
    );
  }
  function messageItem(m) {
    const ephemeral = (m.flags & 64) !== 0;
    const loading = (m.flags & 128) !== 0;
    return el(
      'li',
      { class: 'message' + (ephemeral ? ' ephemeral' : ''), 'data-message-id': m.id },
      el(
        'div',
        {},
        el('span', { class: 'author', text: displayName(m.author) }),
        m.author && m.author.bot ? el('span', { class: 'badge', text: 'APP' }) : undefined,
        el('time', { class: 'meta', datetime: m.timestamp, text: new Date(m.timestamp).toLocaleTimeString() }),
        m.edited_timestamp ? el('span', { class: 'meta', text: '(edited)' }) : undefined,
      ),
      m.interaction_metadata ? el('div', { class: 'note', text: usedWhat(m) }) : undefined,
      loading ? el('div', { class: 'note', text: 'The application is thinking…' }) : undefined,
      m.content ? markdown(m.content) : undefined,
      (m.components || []).map((c) => component(c, false)),
      ephemeral ? el('div', { class: 'note', text: 'Only you can see this' }) : undefined,
      ephemeral || loading ? undefined : reactions(m),
    );
  }

  // The answers.
  function say(text, error) {
    const out = $('result');
    if (!out) return;
    out.textContent = text;
    out.className = 'result' + (error ? ' error' : '');
  }
  const ANSWERS = {
    4: 'The application replied with a new message.',
    5: 'The application deferred: the message shows once it is edited.',
    6: 'The application acknowledged (deferred update).',
    7: 'The application updated the message.',
    8: 'Choices.',
    9: 'The application opened a modal.',
    12: 'The application launched an activity.',
  };
  async function act(kind, body) {
    say('Waiting for the application…');
    try {
      const result = await api('actions/' + kind, { ...body, userId: userId() });
      if (result.response) say(ANSWERS[result.response.type] || 'Answered (type ' + result.response.type + ').');
      else say(result.reacted === false ? 'Reaction removed.' : 'Reaction added.');
      if (result.response && result.response.type === 9) openModal(result.response.data);
      await refresh();
      return result;
    } catch (err) {
      say((err.status ? 'The application answered ' + err.status + ': ' : '') + err.message, true);
      return undefined;
    }
  }

  // Modals, as forms.
  function modalField(c) {
    const id = 'f-' + c.custom_id;
    switch (c.type) {
      case ComponentType.TextInput:
        return c.style === 2
          ? el('textarea', {
              id,
              'data-custom-id': c.custom_id,
              rows: 4,
              placeholder: c.placeholder,
              required: c.required !== false,
              minLength: c.min_length,
              maxLength: c.max_length,
              value: c.value ?? '',
            })
          : el('input', {
              id,
              type: 'text',
              'data-custom-id': c.custom_id,
              placeholder: c.placeholder,
              required: c.required !== false,
              minLength: c.min_length,
              maxLength: c.max_length,
              value: c.value ?? '',
            });
      case ComponentType.StringSelect:
      case ComponentType.UserSelect:
      case ComponentType.RoleSelect:
      case ComponentType.MentionableSelect:
      case ComponentType.ChannelSelect: {
        const s = selectOf(c, true);
        s.id = id;
        s.removeAttribute('aria-label');
        return s;
      }
      case ComponentType.FileUpload:
        return el('input', { id, type: 'file', 'data-custom-id': c.custom_id, 'data-kind': 'file', multiple: (c.max_values ?? 1) > 1 });
      case ComponentType.RadioGroup:
        return el(
          'div',
          { role: 'radiogroup', 'data-custom-id': c.custom_id, 'data-kind': 'radio' },
          (c.options || []).map((o) => el('label', {}, el('input', { type: 'radio', name: id, value: o.value, checked: o.default === true }), ' ' + o.label)),
        );
      case ComponentType.CheckboxGroup:
        return el(
          'div',
          { role: 'group', 'data-custom-id': c.custom_id, 'data-kind': 'checkboxes' },
          (c.options || []).map((o) => el('label', {}, el('input', { type: 'checkbox', value: o.value, checked: o.default === true }), ' ' + o.label)),
        );
      case ComponentType.Checkbox:
        return el('input', { id, type: 'checkbox', 'data-custom-id': c.custom_id, 'data-kind': 'checkbox', checked: c.default === true });
      default:
        return el('span', { class: 'note', text: '[component type ' + String(c.type) + ']' });
    }
  }
  function modalPart(c) {
    if (c.type === ComponentType.TextDisplay) return markdown(c.content ?? '');
    if (c.type === ComponentType.Label) {
      const field = modalField(c.component || {});
      const grouped = field.tagName === 'DIV';
      if (grouped) field.setAttribute('aria-label', c.label);
      return grouped
        ? el('fieldset', {}, el('legend', { text: c.label }), c.description ? el('div', { class: 'note', text: c.description }) : undefined, field)
        : el(
            'div',
            {},
            el('label', { class: 'label', for: field.id, text: c.label }),
            c.description ? el('div', { class: 'note', text: c.description }) : undefined,
            field,
          );
    }
    if (c.type === ComponentType.ActionRow)
      return el(
        'div',
        {},
        (c.components || []).map((x) => {
          const f = modalField(x);
          return el('div', {}, x.label ? el('label', { class: 'label', for: f.id, text: x.label }) : undefined, f);
        }),
      );
    return component(c, true);
  }
  function modalValues(form) {
    const values = {};
    for (const node of form.querySelectorAll('[data-custom-id]')) {
      const key = node.dataset.customId;
      const kind = node.dataset.kind;
      if (kind === 'file') values[key] = [...node.files].map((f) => f.name);
      else if (kind === 'radio') values[key] = (node.querySelector('input:checked') || {}).value ?? null;
      else if (kind === 'checkboxes') values[key] = [...node.querySelectorAll('input:checked')].map((i) => i.value);
      else if (kind === 'checkbox') values[key] = node.checked;
      else if (node.tagName === 'SELECT') values[key] = [...node.selectedOptions].map((o) => o.value).filter((v) => v !== '');
      else values[key] = node.value;
    }
    return values;
  }
  function openModal(data) {
    const dialog = $('modal');
    dialog.replaceChildren();
    const form = el(
      'form',
      { method: 'dialog' },
      el('h2', { id: 'modal-title', text: data.title ?? '' }),
      (data.components || []).map(modalPart),
      el(
        'div',
        { class: 'actions' },
        el('button', { type: 'button', class: 'btn', text: 'Cancel', onclick: () => dialog.close() }),
        el('button', { type: 'submit', class: 'btn s1', text: 'Submit' }),
      ),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const values = modalValues(form);
      dialog.close();
      void act('submit', { customId: data.custom_id, values });
    });
    dialog.append(form);
    dialog.showModal();
  }

  // The command picker.
  /** What the picker offers: each slash command, or each of its subcommands (in groups too), with the options to fill. */
  function commandsHere() {
    const entries = [];
    for (const c of world.commands.filter((x) => (x.type ?? 1) === 1 && (x.guild_id === undefined || x.guild_id === null || x.guild_id === guildId))) {
      const subs = (c.options || []).filter((o) => o.type === 1 || o.type === 2);
      if (subs.length === 0) entries.push({ command: c, path: [], options: c.options || [], title: c.name, description: c.description });
      for (const o of subs) {
        if (o.type === 1) entries.push({ command: c, path: [o], options: o.options || [], title: c.name + ' ' + o.name, description: o.description });
        else
          for (const sub of o.options || [])
            entries.push({
              command: c,
              path: [o, sub],
              options: sub.options || [],
              title: c.name + ' ' + o.name + ' ' + sub.name,
              description: sub.description,
            });
      }
    }
    return entries;
  }
  /** Wraps filled options in their subcommand (and group), as the service nests them. */
  function nest(entry, filled) {
    return entry.path.reduceRight((inner, o) => [{ name: o.name, type: o.type, options: inner }], filled);
  }
  function optionInput(entry, o) {
    const command = entry.command;
    const id = 'o-' + o.name;
    let input;
    if (o.type === 5) input = el('input', { id, type: 'checkbox', 'data-option': o.name });
    else if (o.choices && o.choices.length) {
      input = el(
        'select',
        { id, 'data-option': o.name, required: o.required === true },
        el('option', { value: '', text: '—' }),
        o.choices.map((ch) => el('option', { value: String(ch.value), text: ch.name })),
      );
    } else if (o.type === 6 || o.type === 7 || o.type === 8 || o.type === 9) {
      input = el(
        'select',
        { id, 'data-option': o.name, required: o.required === true },
        el('option', { value: '', text: '—' }),
        entityOptions({ 6: 5, 7: 8, 8: 6, 9: 7 }[o.type]).map((x) => el('option', { value: x.value, text: x.label })),
      );
    } else {
      input = el('input', {
        id,
        type: o.type === 4 || o.type === 10 ? 'number' : 'text',
        step: o.type === 10 ? 'any' : undefined,
        'data-option': o.name,
        required: o.required === true,
        autocomplete: 'off',
      });
      if (o.autocomplete) {
        const list = el('datalist', { id: id + '-choices' });
        input.setAttribute('list', list.id);
        input.addEventListener('input', async () => {
          try {
            const result = await api('actions/autocomplete', {
              guildId,
              channelId,
              userId: userId(),
              name: command.name,
              applicationId: command.application_id,
              options: nest(entry, [{ name: o.name, type: o.type, value: input.value, focused: true }]),
            });
            list.replaceChildren(
              ...((result.response.data && result.response.data.choices) || []).map((ch) => el('option', { value: String(ch.value), label: ch.name })),
            );
          } catch (err) {
            say(err.message, true);
          }
        });
        return el('label', { for: id }, o.name + (o.required ? ' *' : ''), input, list);
      }
    }
    return el('label', { for: id }, o.name + (o.required ? ' *' : ''), o.description ? el('span', { class: 'note', text: o.description }) : undefined, input);
  }
  function openCommand(entry) {
    const box = $('picker');
    const command = entry.command;
    const options = entry.options;
    const form = el(
      'form',
      { class: 'options', 'aria-label': '/' + entry.title },
      el('strong', { text: '/' + entry.title }),
      el('span', { class: 'note', text: entry.description ?? '' }),
      options.map((o) => optionInput(entry, o)),
      el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'btn s1', text: 'Send' })),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const filled = [];
      for (const o of options) {
        const node = form.querySelector('[data-option="' + CSS.escape(o.name) + '"]');
        if (o.type === 5) {
          filled.push({ name: o.name, type: 5, value: node.checked });
          continue;
        }
        if (node.value === '') continue;
        filled.push({ name: o.name, type: o.type, value: o.type === 4 ? parseInt(node.value, 10) : o.type === 10 ? Number(node.value) : node.value });
      }
      box.replaceChildren();
      $('composer').value = '';
      void act('invoke', { guildId, channelId, name: command.name, applicationId: command.application_id, options: nest(entry, filled) });
    });
    box.replaceChildren(form);
    form.querySelector('input, select, button').focus();
  }
  /** Enter in the composer: plain text goes to the channel as the player's message (a command is picked from the list). */
  async function sendText(event) {
    event.preventDefault();
    const input = $('composer');
    const content = input.value;
    if (content.trim() === '' || content.startsWith('/')) return;
    try {
      await api('actions/message', { channelId, userId: userId(), content });
      input.value = '';
      say('Sent.');
      await refresh();
    } catch (err) {
      say(err.message, true);
    }
  }
  function showPicker() {
    const box = $('picker');
    const text = $('composer').value;
    if (!text.startsWith('/')) return box.replaceChildren();
    const typed = text.slice(1).toLowerCase();
    const matches = commandsHere().filter((e) => e.title.startsWith(typed));
    box.replaceChildren(
      matches.length === 0
        ? el('div', { class: 'note', text: 'No command matches.' })
        : el(
            'ul',
            { class: 'picker', 'aria-label': 'Commands' },
            matches.map((e) =>
              el(
                'li',
                {},
                el(
                  'button',
                  { type: 'button', onclick: () => openCommand(e) },
                  el('strong', { text: '/' + e.title }),
                  ' ',
                  el('span', { class: 'note', text: e.description ?? '' }),
                ),
              ),
            ),
          ),
    );
  }

  // Pages.
  function nav() {
    $('nav').replaceChildren(
      ...world.guilds.map((g) =>
        el(
          'section',
          {},
          el('h2', { text: g.name }),
          el(
            'ul',
            {},
            g.channels
              .filter((c) => c.type === 0 || c.type === 5)
              .map((c) =>
                el('li', {}, el('a', { href: '/channels/' + g.id + '/' + c.id, 'aria-current': c.id === channelId ? 'page' : undefined, text: '#' + c.name })),
              ),
          ),
        ),
      ),
    );
  }
  async function refresh() {
    if (!channelId) return;
    const messages = await api('channels/' + channelId + '/messages?as=' + encodeURIComponent(userId()));
    const list = $('messages');
    list.replaceChildren(...messages.map(messageItem));
    list.setAttribute('data-count', String(messages.length));
    performance.mark('channel-rendered', { detail: messages.length }); // read by bench/web.mjs
    list.lastElementChild?.scrollIntoView({ block: 'end' });
  }
  function channelPage() {
    const channel = world.guilds.flatMap((g) => g.channels).find((c) => c.id === channelId);
    document.title = '#' + (channel ? channel.name : channelId) + ' — Emulator';
    $('main').replaceChildren(
      el('h1', { text: '#' + (channel ? channel.name : channelId) }),
      el('ol', { id: 'messages', class: 'messages', 'aria-label': 'Messages', 'aria-live': 'polite' }),
      el(
        'div',
        { class: 'composer' },
        el('div', { id: 'picker' }),
        el(
          'form',
          { id: 'compose', onsubmit: sendText },
          el('input', {
            id: 'composer',
            type: 'text',
            'aria-label': 'Message',
            placeholder: 'Message #' + (channel ? channel.name : channelId) + ', or / for a command',
            autocomplete: 'off',
            maxLength: 2000,
            oninput: showPicker,
          }),
        ),
      ),
      el('div', { id: 'result', class: 'result', role: 'status' }),
    );
    void refresh();
    const events = new EventSource('/web/events');
    events.addEventListener('message', (event) => {
      if (JSON.parse(event.data).channel_id === channelId) void refresh();
    });
  }
  function startPage() {
    $('main').replaceChildren(
      el('h1', { text: 'The emulator’s world' }),
      el('h2', { text: 'Guilds' }),
      world.guilds.length
        ? el(
            'ul',
            {},
            world.guilds.map((g) =>
              el(
                'li',
                {},
                g.name + ' ',
                el('span', { class: 'note', text: '(' + g.id + ')' }),
                el(
                  'ul',
                  {},
                  g.channels.map((c) =>
                    el('li', {}, c.type === 0 || c.type === 5 ? el('a', { href: '/channels/' + g.id + '/' + c.id, text: '#' + c.name }) : c.name),
                  ),
                ),
              ),
            ),
          )
        : el('p', { class: 'note', text: 'No guild yet: create one with emulator.createGuild() or the CLI’s --guild.' }),
      el('h2', { text: 'Commands' }),
      el(
        'ul',
        {},
        world.commands.map((c) => el('li', {}, el('strong', { text: '/' + c.name }), ' ', el('span', { class: 'note', text: c.description ?? '' }))),
      ),
      el('h2', { text: 'Lobbies' }),
      world.lobbies.length
        ? el(
            'ul',
            {},
            world.lobbies.map((l) =>
              el(
                'li',
                {},
                el('span', { text: 'Lobby ' + l.id }),
                el('div', { class: 'note', text: 'Members: ' + (l.members.map((m) => m.username ?? m.id).join(', ') || 'none') }),
                el(
                  'ul',
                  { 'aria-label': 'Messages of lobby ' + l.id },
                  l.messages.map((m) => el('li', {}, el('span', { class: 'author', text: m.author + ': ' }), el('span', { text: m.content }))),
                ),
              ),
            ),
          )
        : el('p', { class: 'note', text: 'No lobby yet.' }),
      el('h2', { text: 'Requests' }),
      el(
        'table',
        {},
        el('thead', {}, el('tr', {}, el('th', { text: 'Method' }), el('th', { text: 'Path' }), el('th', { text: 'Status' }))),
        el(
          'tbody',
          {},
          world.requests.map((r) => el('tr', {}, el('td', { text: r.method }), el('td', { text: r.path }), el('td', { text: String(r.status) }))),
        ),
      ),
    );
  }
  // The accounts panel: users, live grants, device codes waiting, provisional identities.
  async function accountsPage() {
    document.title = 'Accounts — Emulator';
    const data = await api('accounts');
    const run = async (kind, body, done) => {
      try {
        await api('actions/' + kind, body);
        await accountsPage();
        say(done);
      } catch (err) {
        say(err.message, true);
      }
    };
    const banButton = (userId, name, banned) =>
      el('button', {
        type: 'button',
        class: 'btn' + (banned ? '' : ' s4'),
        text: banned ? 'Unban' : 'Ban',
        'aria-label': (banned ? 'Unban ' : 'Ban ') + name,
        onclick: () => run('ban', { userId, banned: !banned }, (banned ? 'Unbanned ' : 'Banned ') + name + '.'),
      });
    const table = (label, heads, rows) =>
      rows.length === 0
        ? el('p', { class: 'note', text: 'None.' })
        : el(
            'table',
            { 'aria-label': label },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                heads.map((h) => el('th', { text: h })),
              ),
            ),
            el('tbody', {}, rows),
          );
    const who = (u) => world.users.find((x) => x.id === u.id);
    $('main').replaceChildren(
      el('h1', { text: 'Accounts' }),
      el('div', { id: 'result', class: 'result', role: 'status' }),
      el('h2', { text: 'Users' }),
      table(
        'Users',
        ['Name', 'Username', 'Id', ''],
        data.users.map((u) =>
          el(
            'tr',
            {},
            el('td', { text: displayName(u) + (u.signed_in ? ' (signs in by default)' : '') }),
            el('td', { text: u.username }),
            el('td', { text: u.id }),
            el('td', {}, banButton(u.id, u.username, u.banned)),
          ),
        ),
      ),
      el('h2', { text: 'Live grants' }),
      table(
        'Live grants',
        ['Application', 'User', 'Scopes', ''],
        data.grants.map((g) =>
          el(
            'tr',
            {},
            el('td', { text: g.application.name }),
            el('td', { text: displayName(who(g.user) || g.user) }),
            el('td', { text: g.scopes.join(' ') }),
            el(
              'td',
              {},
              el('button', {
                type: 'button',
                class: 'btn s4',
                text: 'Revoke',
                'aria-label': 'Revoke ' + g.user.username + '’s grant to ' + g.application.name,
                onclick: () => run('revoke-grant', { grantId: g.id }, 'Revoked: the tokens of that sign-in no longer work.'),
              }),
            ),
          ),
        ),
      ),
      el('h2', { text: 'Device codes waiting' }),
      table(
        'Device codes waiting',
        ['Code', 'Application', ''],
        data.devices.map((d) =>
          el(
            'tr',
            {},
            el('td', {}, el('code', { text: d.user_code })),
            el('td', { text: d.application.name }),
            el(
              'td',
              {},
              el('button', {
                type: 'button',
                class: 'btn s3',
                text: 'Approve',
                'aria-label': 'Approve ' + d.user_code + ' as ' + displayName(world.users.find((u) => u.id === userId())),
                onclick: () => run('device', { userCode: d.user_code, approve: true, userId: userId() }, 'Approved.'),
              }),
              ' ',
              el('button', {
                type: 'button',
                class: 'btn s4',
                text: 'Deny',
                'aria-label': 'Deny ' + d.user_code,
                onclick: () => run('device', { userCode: d.user_code, approve: false }, 'Denied.'),
              }),
            ),
          ),
        ),
      ),
      el('h2', { text: 'Provisional identities' }),
      table(
        'Provisional identities',
        ['Identity', 'Name', 'Merged into', ''],
        data.provisional.map((a) =>
          el(
            'tr',
            {},
            el('td', { text: a.type + ' ' + a.external_user_id }),
            el('td', { text: a.global_name }),
            el('td', { text: a.merged_into || '—' }),
            el('td', {}, banButton(a.user_id, a.global_name, a.banned)),
          ),
        ),
      ),
    );
  }
  async function start() {
    world = await api('state');
    const select = $('user');
    select.replaceChildren(...world.users.map((u) => el('option', { value: u.id, text: displayName(u) + (u.global_name ? ' (' + u.username + ')' : '') })));
    select.value = playingAs();
    select.addEventListener('change', () => {
      localStorage.setItem(PLAYING_AS, select.value);
      if (location.pathname === '/accounts') void accountsPage();
      else void refresh();
      const url = new URL(location.href);
      if (url.searchParams.has('as')) {
        url.searchParams.set('as', select.value);
        history.replaceState(null, '', url);
      }
    });
    nav();
    if (channelId) channelPage();
    else if (location.pathname === '/accounts') await accountsPage();
    else startPage();
  }
  void start();
})();
