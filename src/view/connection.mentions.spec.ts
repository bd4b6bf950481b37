import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type MentionCandidate, rankSkills, SKILL_DESCRIPTION_CHARS } from '../protocol/mentions';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { testConnection } from '../testing/viewConnection';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the composer\'s @ queries', () => {
	it('are answered with the host\'s candidates, at most 50, to the request that asked', async () => {
		const many: MentionCandidate[] = Array.from({ length: 80 }, (_, index) => ({ kind: 'file', path: `f${index}.ts` }));
		const t = testConnection({ mentionCandidates: () => Promise.resolve(many) });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q1', query: 'f' });
		await flush();
		const answer = t.posted.find((message) => message.type === 'mentions.answer');
		assert.equal(answer?.type === 'mentions.answer' ? answer.requestId : '', 'q1');
		assert.equal(answer?.type === 'mentions.answer' ? answer.candidates.length : 0, 50);
	});

	it('cancel the one before: its lister sees the abort and its answer is never posted', async () => {
		const signals: AbortSignal[] = [];
		const t = testConnection({
			mentionCandidates: (query, signal) => {
				signals.push(signal);
				return Promise.resolve([{ kind: 'file', path: `${query}.ts` }]);
			},
		});
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q1', query: 'a' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q2', query: 'ab' });
		await flush();
		assert.deepEqual(signals.map((signal) => signal.aborted), [true, false]);
		assert.deepEqual(t.posted.flatMap((message) => (message.type === 'mentions.answer' ? [[message.requestId, message.candidates[0]?.path]] : [])), [['q2', 'ab.ts']]);
	});

	it('carry what the chat features\' kinds of mention offer beside the files, each with the text it inserts; none when they offer nothing', async () => {
		const queries: string[] = [];
		const t = testConnection({
			mentionCandidates: () => Promise.resolve([{ kind: 'file', path: 'mcp.md' }]),
			mentionOffers: (query) => {
				queries.push(query);
				return Promise.resolve(query.startsWith('mcp:') ? [{ insert: '@mcp:"docs/a b.md"', label: 'mcp:docs/a b.md', detail: 'A B (text/markdown)' }] : []);
			},
		});
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q1', query: 'mcp:docs' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q2', query: 'src' });
		await flush();
		const answers = t.posted.flatMap((message) => (message.type === 'mentions.answer' ? [message] : []));
		assert.deepEqual(queries, ['mcp:docs', 'src']);
		assert.deepEqual(answers.map((answer) => [answer.requestId, answer.offers]), [['q2', undefined]], 'the newer query cancelled the older');
		t.connection.receive({ type: 'mentions.query', requestId: 'q3', query: 'mcp:docs' });
		await flush();
		const last = t.posted.filter((message) => message.type === 'mentions.answer').at(-1);
		assert.deepEqual(last?.type === 'mentions.answer' ? [last.offers, last.candidates] : [], [[{ insert: '@mcp:"docs/a b.md"', label: 'mcp:docs/a b.md', detail: 'A B (text/markdown)' }], [{ kind: 'file', path: 'mcp.md' }]]);
	});

	it('answer empty, and log why, when the files cannot be listed; empty without a lister', async () => {
		const t = testConnection({ mentionCandidates: () => Promise.reject(new Error('search is down')) });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q1', query: 'x' });
		await flush();
		assert.deepEqual(t.posted.flatMap((message) => (message.type === 'mentions.answer' ? [message.candidates] : [])), [[]]);
		assert.match(t.log.lines.map((line) => line.message).join('\n'), /could not be listed: search is down/);
		const bare = testConnection();
		bare.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		bare.connection.receive({ type: 'mentions.query', requestId: 'q1', query: 'x' });
		await flush();
		assert.ok(bare.posted.some((message) => message.type === 'mentions.answer' && message.candidates.length === 0));
	});
});

describe('a user row\'s file chip', () => {
	it('asks the workbench to open the path as written, at its lines; a refusal is said in the chat', async () => {
		const t = testConnection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'mention.open', path: 'src/a.ts', range: { start: 10, end: 40 } });
		await flush();
		assert.deepEqual(t.workbench.opened, ['mention src/a.ts#L10-40']);
		t.workbench.mentionRefusal = '../x is outside the workspace folders: the chat opens only files inside them.';
		t.connection.receive({ type: 'mention.open', path: '../x' });
		await flush();
		assert.ok(t.posted.some((message) => message.type === 'notice' && message.level === 'warning' && message.text.startsWith('../x is outside')));
	});
});

describe('a message a UserPromptSubmit hook blocked', () => {
	it('goes back to the composer that sent it, with the hook\'s reason', () => {
		const t = testConnection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'submit', text: 'deploy it' });
		t.agent.block('deploy it', 'no deploys on Friday');
		const restored = t.posted.flatMap((message) => (message.type === 'composer.restore' ? [[message.text, message.reason]] : []));
		assert.deepEqual(restored, [['deploy it', 'no deploys on Friday']]);
		t.agent.block('deploy it', 'again');
		assert.equal(t.posted.filter((message) => message.type === 'composer.restore').length, 1, 'offered back once');
	});

	it('sent by the API (aside.sendMessage) has no composer: nothing is offered back', () => {
		const t = testConnection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.agent.block('from the API', 'blocked');
		assert.equal(t.posted.some((message) => message.type === 'composer.restore'), false);
	});
});

describe('messages a Stop caught before they reached the model', () => {
	it('go back to the composer together, to the chat they were typed in; one the API sent does not', () => {
		const t = testConnection();
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'submit', text: 'first' });
		t.connection.receive({ type: 'submit', text: 'use pnpm' });
		t.connection.receive({ type: 'submit', text: 'and pin it' });
		t.agent.returnStopped(['use pnpm', 'from the API', 'and pin it'], 's-old');
		const restored = t.posted.flatMap((message) => (message.type === 'composer.restore' ? [message] : []));
		assert.deepEqual(restored.map(({ text, cause, sessionId }) => ({ text, cause, sessionId })), [{ text: 'use pnpm\n\nand pin it', cause: 'stopped', sessionId: 's-old' }]);
	});
});

describe('the composer\'s $ queries', () => {
	const skills = [
		{ name: 'release-notes', description: 'Writes release notes.' },
		{ name: 'review', description: 'x'.repeat(1000) },
		{ name: 'db-migrate', description: 'Adds a migration.' },
	];

	it('are answered with the skills whose names match, best first, never the files', async () => {
		let listed = 0;
		const t = testConnection({
			mentionCandidates: () => {
				listed += 1;
				return Promise.resolve([{ kind: 'file', path: 'release.ts' }]);
			},
			skillCandidates: () => skills,
		});
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q1', query: 're', trigger: '$' });
		await flush();
		const answer = t.posted.find((message) => message.type === 'mentions.answer');
		assert.ok(answer?.type === 'mentions.answer');
		assert.equal(answer.requestId, 'q1');
		assert.deepEqual(answer.candidates, []);
		assert.deepEqual(answer.skills?.map((skill) => skill.name), ['release-notes', 'review', 'db-migrate']);
		assert.equal(answer.skills[1]?.description.length, SKILL_DESCRIPTION_CHARS, 'long descriptions cut');
		assert.equal(listed, 0, 'no file search for a $ query');
	});

	it('answer an empty list without a library, and an @ query carries no skills', async () => {
		const t = testConnection({ mentionCandidates: () => Promise.resolve([]) });
		t.connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q1', query: '', trigger: '$' });
		t.connection.receive({ type: 'mentions.query', requestId: 'q2', query: '' });
		await flush();
		const answers = t.posted.flatMap((message) => (message.type === 'mentions.answer' ? [[message.requestId, message.skills]] : []));
		assert.deepEqual(answers, [['q1', []], ['q2', undefined]]);
	});
});

describe('rankSkills', () => {
	it('ranks fuzzily, cuts long descriptions, and bounds the list', () => {
		const ranked = rankSkills('re', [
			{ name: 'review', description: 'r' },
			{ name: 'release-notes', description: 'y'.repeat(1000) },
			{ name: 'db', description: 'no match' },
		]);
		assert.deepEqual(ranked.map((skill) => skill.name), ['release-notes', 'review']);
		assert.equal(ranked[0]?.description.length, SKILL_DESCRIPTION_CHARS);
		assert.equal(rankSkills('', Array.from({ length: 80 }, (_, index) => ({ name: `s${index}`, description: '' }))).length, 50);
	});
});
