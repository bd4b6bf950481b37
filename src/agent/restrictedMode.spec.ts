import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { providedBy, RestrictedModeNotices, restrictedNotice } from './restrictedMode';

describe('Restricted Mode notices', () => {
	const existing = new Set(['/ws/CLAUDE.md', '/ws/.claude/skills', '/ws/.aside/hooks.json']);
	const exists = (path: string) => existing.has(path);

	it('names what the workspace provides that was not loaded, by kind, and the person\'s own files that still apply', () => {
		const text = restrictedNotice(providedBy(['/ws'], exists)) ?? '';
		assert.equal(text, 'Restricted Mode: this workspace is not trusted, so Aside did not load what it provides — instruction files (CLAUDE.md); skills (.claude/skills); hooks (.aside/hooks.json) — and runs no hooks. Your own ~/.aside/skills, ~/.aside/agents and ~/.claude/agents still apply. Trust the workspace to load them.');
		assert.equal(restrictedNotice(providedBy(['/empty'], exists)), undefined);
	});

	it('names the person\'s own instruction files Aside reads first among what still applies, and Cursor\'s rules among what was not loaded', () => {
		const withCursor = (path: string) => path === '/ws/.cursor/rules';
		assert.equal(
			restrictedNotice(providedBy(['/ws'], withCursor), ['~/.claude/CLAUDE.md']),
			'Restricted Mode: this workspace is not trusted, so Aside did not load what it provides — instruction files (.cursor/rules) — and runs no hooks. Your own ~/.claude/CLAUDE.md, ~/.aside/skills, ~/.aside/agents and ~/.claude/agents still apply. Trust the workspace to load them.',
		);
		const told: string[] = [];
		let userFiles: string[] = [];
		const change = new Emitter<{ id: string }>();
		const notices = new RestrictedModeNotices({ sessions: { current: { id: 'a' }, onDidChangeCurrent: change.event }, trusted: () => false, folders: () => ['/ws'], notify: (text) => told.push(text), exists, userFiles: () => userFiles });
		userFiles = ['$CLAUDE_CONFIG_DIR/CLAUDE.md'];
		change.fire({ id: 'b' });
		assert.match(told[0] ?? '', /Your own ~\/\.aside\/skills, ~\/\.aside\/agents and ~\/\.claude\/agents still apply/, 'none read when the first chat was told');
		assert.match(told[1] ?? '', /Your own \$CLAUDE_CONFIG_DIR\/CLAUDE\.md, ~\/\.aside\/skills/, 'asked again for the next chat');
		notices.dispose();
	});

	it('tells each chat once, only while untrusted', () => {
		const change = new Emitter<{ id: string }>();
		const sessions = { current: { id: 'a' }, onDidChangeCurrent: change.event };
		let trusted = false;
		const told: string[] = [];
		const notices = new RestrictedModeNotices({ sessions, trusted: () => trusted, folders: () => ['/ws'], notify: (text) => told.push(text), exists });
		change.fire({ id: 'b' });
		change.fire({ id: 'a' });
		assert.equal(told.length, 2, 'a, then b; a again is not told twice');
		trusted = true;
		change.fire({ id: 'c' });
		assert.equal(told.length, 2);
		notices.dispose();
	});

	it('a chat that had nothing to be told when it became current is told after its turn, once', () => {
		const turns = new Emitter<unknown>();
		const present = new Set<string>();
		const told: string[] = [];
		const sessions = { current: { id: 'a' }, onDidChangeCurrent: new Emitter<{ id: string }>().event };
		const notices = new RestrictedModeNotices({ sessions, trusted: () => false, folders: () => ['/ws'], notify: (text) => told.push(text), exists: (path) => present.has(path), onDidEndTurn: turns.event });
		assert.equal(told.length, 0);
		present.add('/ws/CLAUDE.md');
		turns.fire(undefined);
		turns.fire(undefined);
		assert.equal(told.length, 1);
		notices.dispose();
	});
});
