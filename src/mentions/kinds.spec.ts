// The seam through which a chat feature adds a kind of mention: parsed beside the built-in ones,
// expanded in the order typed by the kind's own expander (one per message), turned off by its
// reminder type, failing alone, and offered in the composer's `@` list by prefix. The kind here is
// a small one made for the seam; the MCP resources' kind is src/features/mcp/resourceMention.spec.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { declareReminder, entryOf } from '../reminders/declaration';
import type { RecordLike } from '../reminders/history';
import { NodeWorkspaceFs, tempWorkspace } from '../testing/nodeWorkspace';
import { RecordingLogger } from '../testing/recordingLogger';
import { mentionAttachments } from './expand';
import { contributedOffers, type MentionContext, mentionPrefixes, registerMentionKinds, type WindowMentionKind } from './kinds';
import { DEFAULT_MENTION_LIMITS } from './limits';
import { parseMentions } from './parse';
import type { MentionPorts } from './ports';

const NOTE = declareReminder({
	type: 'mentionNoteForSeam',
	key: 'mention.note-for-seam',
	label: 'note',
	purpose: 'A note the user mentioned, for the seam spec.',
	introducedIn: '0.6.0',
	configurable: true,
	description: 'A note.',
});

const ROOT = { kind: 'root', id: 't1' } as const;
const signal = () => new AbortController().signal;

let workspace: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
	workspace = tempWorkspace('aside-mention-kinds-');
	writeFileSync(join(workspace.root, 'a.ts'), 'export const a = 1;\n');
});
afterEach(() => {
	workspace.dispose();
});

/** A kind `@note:<name>`: the note's text, or that there is none; `boom` throws. Each expander counts what it expanded. */
function noteKind(notes: Record<string, string>) {
	const expanders: { context: MentionContext; expanded: string[] }[] = [];
	const kind: WindowMentionKind = {
		prefix: 'note:',
		declaration: NOTE,
		source: {
			expander: (context) => {
				const made = { context, expanded: [] as string[] };
				expanders.push(made);
				return (mention) => {
					made.expanded.push(mention.body);
					if (mention.body === 'boom') {
						return Promise.reject(new Error('the note store broke'));
					}
					const text = notes[mention.body];
					return Promise.resolve({ ...entryOf(NOTE), body: text === undefined ? `The user mentioned ${mention.raw}, which is not attached: no such note.` : `The user mentioned ${mention.raw}: ${text}` });
				};
			},
			offers: (query) => Promise.resolve(query.startsWith('note:') ? [{ insert: '@note:todo', label: 'note:todo', detail: 'a note' }] : [{ insert: '@note:', label: '@note:', detail: 'a note', partial: true }]),
		},
	};
	return { kind, expanders };
}

function ports(kinds: readonly WindowMentionKind[], records: RecordLike[] = [], enabled = (_type: string) => true): MentionPorts {
	return {
		fs: new NodeWorkspaceFs(),
		roots: () => [workspace.root],
		records: () => records,
		problems: () => [],
		selection: () => undefined,
		changes: () => Promise.resolve({ kind: 'unavailable', why: 'none' }),
		isEnabled: enabled,
		kinds,
	};
}

describe('a chat feature\'s kind of mention', () => {
	it('is expanded in the order typed among the built-in mentions, by one expander per message given the chat\'s records and the limits', async () => {
		const { kind, expanders } = noteKind({ todo: 'ship it', later: 'tidy up' });
		const records: RecordLike[] = [{ kind: 'user' }];
		const limits = { ...DEFAULT_MENTION_LIMITS, maxLines: 42 };
		const staged = await mentionAttachments(ports([kind], records), limits)('See @note:todo, then @a.ts and @note:"later".', ROOT, signal());
		assert.deepEqual(staged.map(({ stage, entry }) => [stage, entry.key, entry.body?.split('\n')[0]]), [
			['mention', 'mention.note-for-seam', 'The user mentioned @note:todo: ship it'],
			['mention', 'mention.file', 'The user mentioned a.ts (lines 1–1 of 1). Its content, as of this message:'],
			['mention', 'mention.note-for-seam', 'The user mentioned @note:"later": tidy up'],
		]);
		const [expander, ...more] = expanders;
		assert.equal(more.length, 0, 'one expander for the message');
		assert.ok(expander);
		assert.deepEqual(expander.expanded, ['todo', 'later']);
		assert.deepEqual([...expander.context.records], records);
		assert.equal(expander.context.limits.maxLines, 42);
	});

	it('turned off (its reminder type), expands to nothing and leaves the others; a kind that throws costs its own mention only', async () => {
		const { kind, expanders } = noteKind({ todo: 'ship it' });
		const off = await mentionAttachments(ports([kind], [], (type) => type !== NOTE.type))('@note:todo @a.ts', ROOT, signal());
		assert.deepEqual(off.map(({ entry }) => entry.key), ['mention.file']);
		assert.equal(expanders.length, 0, 'not even asked');
		const broken = await mentionAttachments(ports([kind]))('@note:boom and @note:todo and @a.ts', ROOT, signal());
		assert.deepEqual(broken.map(({ entry }) => entry.body?.split('\n')[0]), ['The user mentioned @note:todo: ship it', 'The user mentioned a.ts (lines 1–1 of 1). Its content, as of this message:']);
	});

	it('without the kind in the window, `@note:x` is a path that names nothing: text', async () => {
		assert.deepEqual(await mentionAttachments(ports([]))('@note:todo', ROOT, signal()), []);
	});

	it('offers its options for a query starting with its prefix, or starting it; a kind that fails offers nothing and is logged', async () => {
		const { kind } = noteKind({});
		const failing: WindowMentionKind = { prefix: 'bad:', declaration: NOTE, source: { expander: () => () => Promise.resolve(undefined), offers: () => Promise.reject(new Error('no list today')) } };
		const log = new RecordingLogger();
		assert.deepEqual((await contributedOffers([kind, failing], 'note:', signal(), log)).map((offer) => offer.insert), ['@note:todo']);
		assert.deepEqual((await contributedOffers([kind, failing], 'no', signal(), log)).map((offer) => [offer.insert, offer.partial]), [['@note:', true]]);
		assert.deepEqual(await contributedOffers([kind, failing], 'src/a', signal(), log), [], 'a file query asks no kind');
		assert.deepEqual(await contributedOffers([kind, failing], 'bad:x', signal(), log), []);
		assert.match(log.lines.map((line) => line.message).join('\n'), /The @bad: mentions could not be listed: no list today/);
	});

	it('is known to the parser once registered (as the feature list registers its features\' kinds); a malformed or doubled prefix is refused', () => {
		assert.equal(parseMentions('@note:todo')[0]?.kind, 'path');
		registerMentionKinds([{ prefix: 'note:', declaration: NOTE }]);
		assert.ok(mentionPrefixes().includes('note:'));
		assert.deepEqual(parseMentions('@note:todo'), [{ kind: 'contributed', raw: '@note:todo', prefix: 'note:', body: 'todo' }]);
		registerMentionKinds([{ prefix: 'note:', declaration: NOTE }]);
		const other = declareReminder({ ...NOTE, type: 'mentionOtherForSeam', key: 'mention.other-for-seam' });
		assert.throws(() => {
			registerMentionKinds([{ prefix: 'note:', declaration: other }]);
		}, /registered twice/);
		assert.throws(() => {
			registerMentionKinds([{ prefix: 'Note', declaration: other }]);
		}, /not lower-case letters/);
	});
});
