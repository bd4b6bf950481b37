// A chat's permission mode through the agent: the toolbar's choice is the chat's (recorded, and
// restored on reopen), a message may run in another mode once, and the mode in effect is what
// the tool calls are decided by and what mode.constraints tells the model — once at the first
// request, then only when the mode in effect changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { Emitter } from '../base/event';
import type { ChatRequest } from '../providers/provider';
import type { Tool } from '../tools/tool';
import { parseTranscriptRecord } from '../transcript/records';
import { scriptedModels, testPorts } from '../testing/agentPorts';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { MemoryLibrary, testEnvironment } from '../testing/sessions';
import { viewOfAgent } from '../testing/views';
import { Agent, type AgentSettings } from './agent';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { OPEN_CONTEXT, type PermissionContext } from './permissions/policy';
import { parsePermissionRules } from './permissions/rules';
import { ChatSessions } from './sessions';

/** The commands the scripted Run ran, in order. */
const ran: string[] = [];
const runTool: Tool<{ command: string }> = {
	name: 'Run',
	description: 'Runs a command.',
	kind: 'run',
	input: z.object({ command: z.string() }),
	confirm: ({ command }) => Promise.resolve({ title: 'Run a command', target: command }),
	touches: () => Promise.resolve({ reads: [], writes: [] }),
	run: ({ command }) => {
		ran.push(command);
		return Promise.resolve({ content: `ran ${command}` });
	},
};
const readTool: Tool<{ path: string }> = {
	name: 'Read',
	description: 'Reads a file.',
	kind: 'read',
	input: z.object({ path: z.string() }),
	touches: ({ path }) => Promise.resolve({ reads: [`/ws/${path}`], writes: [] }),
	run: ({ path }) => Promise.resolve({ content: `contents of ${path}` }),
};
const editTool: Tool<{ path: string }> = {
	name: 'Edit',
	description: 'Edits a file.',
	kind: 'write',
	input: z.object({ path: z.string() }),
	confirm: ({ path }) => Promise.resolve({ title: 'Edit a file', target: path }),
	touches: ({ path }) => Promise.resolve({ reads: [], writes: [`/ws/${path}`] }),
	run: ({ path }) => Promise.resolve({ content: `Edited ${path}.` }),
};

function setup(options: { mode?: PermissionMode; permissions?: () => PermissionContext } = {}) {
	const provider = new ScriptedProvider();
	const library = new MemoryLibrary();
	const sessions = new ChatSessions(library, testEnvironment(new FakeClock(), new SequentialIds('s')));
	const settings: AgentSettings = { maxOutputTokens: 1000, maxSteps: 10, permissionMode: options.mode ?? 'ask' };
	const models = scriptedModels(provider);
	const agent = new Agent(
		{ sessions, models, settings: { current: settings, onDidChange: new Emitter<unknown>().event }, system: () => 'system', ...(options.permissions ? { permissions: options.permissions } : {}) },
		testPorts(models, { tools: (mode) => (mode === 'plan' ? [readTool] : [readTool, editTool, runTool]) }),
	);
	const asked: string[] = [];
	const titles: string[] = [];
	agent.onDidChange((state) => {
		if (state.approval) {
			asked.push(`${state.approval.tool} ${state.approval.confirmation.target}`);
			titles.push(state.approval.confirmation.title);
			agent.approve(state.approval.callId, true, undefined);
		}
	});
	return { provider, library, sessions, agent, asked, titles };
}

/** The mode.constraints blocks in the reminders a request carried (its last user message), by their first line. */
function constraintsOf(request: ChatRequest | undefined): string[] {
	const last = request?.messages.at(-1);
	const text = last?.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
	return [...text.matchAll(/<system-reminder key="mode\.constraints">\n([^\n]*)/g)].map((match) => match[1] ?? '');
}

async function say(agent: Agent, provider: ScriptedProvider, text: string, mode?: PermissionMode): Promise<string[]> {
	provider.script({ text: 'ok' });
	const before = provider.requests.length;
	await agent.startTurn(text, mode ? { mode } : {});
	assert.equal(provider.requests.length, before + 1);
	return constraintsOf(provider.requests.at(-1));
}

describe('a chat\'s permission mode', () => {
	it('mode.constraints: at the first delivery, silent while the mode holds, once per change — an override, the return from it, and back to ask', async () => {
		const { agent, provider } = setup();
		assert.deepEqual(await say(agent, provider, 'one'), ['Permission mode now: ask.'], 'the first request of the chat');
		assert.deepEqual(await say(agent, provider, 'two'), [], 'an unchanged mode is not repeated');
		agent.selectMode('auto-edit');
		assert.deepEqual(await say(agent, provider, 'three'), ['Permission mode now: auto-edit.'], 'a change fires once');
		assert.deepEqual(await say(agent, provider, 'four'), []);
		assert.deepEqual(await say(agent, provider, 'five', 'plan'), ['Permission mode now: plan.'], 'a one-message override is a change');
		assert.deepEqual(await say(agent, provider, 'six'), ['Permission mode now: auto-edit.'], 'and so is the return to the chat\'s mode');
		assert.deepEqual(await say(agent, provider, 'seven', 'auto-edit'), [], 'an override to the mode already in effect changes nothing');
		agent.selectMode('ask');
		assert.deepEqual(await say(agent, provider, 'eight'), ['Permission mode now: ask.'], 'returning to ask fires too');
		assert.deepEqual(await say(agent, provider, 'nine'), []);
		agent.selectMode('ask');
		assert.deepEqual(await say(agent, provider, 'ten'), [], 'picking the mode already chosen is no change');
	});

	it('the body says what needs approval, what is refused, the protected paths and the model\'s own responsibility', async () => {
		const { agent, provider } = setup({ mode: 'full-access', permissions: () => ({ ...OPEN_CONTEXT, rules: parsePermissionRules({ ask: ['Run(git push*)'], deny: ['Edit(**/*.lock)'] }).rules }) });
		provider.script({ text: 'ok' });
		await agent.startTurn('go');
		const last = provider.requests[0]?.messages.at(-1);
		const text = last?.role === 'user' && last.content[0]?.type === 'text' ? last.content[0].text : '';
		const body = /<system-reminder key="mode\.constraints">\n([\s\S]*?)\n<\/system-reminder>/.exec(text)?.[1] ?? '';
		assert.match(body, /^Permission mode now: full-access\.$/m);
		assert.match(body, /^- Runs without asking: reading and searching \(Read, List, Glob, Grep\), file changes \(Edit, Write, ApplyPatch\) and commands \(Run\)\.$/m);
		assert.match(body, /^- Needs the user's approval: only what a rule or a protected path asks for/m);
		assert.match(body, /^ {2}deny: Edit\(\*\*\/\*\.lock\)$/m);
		assert.match(body, /^ {2}ask: Run\(git push\*\)$/m);
		assert.match(body, /^- Protected paths: any change to \.git\/, \.vscode\/, \.aside\/ \(at any depth\), \*\.code-workspace files, Aside's own storage, and what changes what the agent is told: \.claude\/, \.cursor\/, \.roo\/, \.clinerules\/, CLAUDE\.md, CLAUDE\.local\.md, AGENTS\.md, AGENTS\.local\.md, \.cursorrules, \.roomodes, \.mcp\.json \(at any depth\), \.github\/\{skills,instructions,prompts,agents,chatmodes,copilot-instructions\.md\} needs the user's approval in every mode\.$/m);
		assert.match(body, /Destructive commands .* remain your responsibility/);
	});

	it('names only the edit tools aside.tools.edit offers, and tells the model again when that changes', async () => {
		let context: PermissionContext = { ...OPEN_CONTEXT, editTools: ['Edit', 'ApplyPatch'] };
		const { agent, provider } = setup({ mode: 'auto-edit', permissions: () => context });
		const bodies = async (text: string): Promise<string[]> => {
			provider.script({ text: 'ok' });
			await agent.startTurn(text);
			const last = provider.requests.at(-1)?.messages.at(-1);
			const sent = last?.role === 'user' && last.content[0]?.type === 'text' ? last.content[0].text : '';
			return [...sent.matchAll(/<system-reminder key="mode\.constraints">\n([\s\S]*?)\n<\/system-reminder>/g)].map((match) => match[1] ?? '');
		};
		const [first] = await bodies('one');
		assert.match(first ?? '', /^- Runs without asking: reading and searching \(Read, List, Glob, Grep\) and file changes \(Edit, ApplyPatch\)\.$/m);
		assert.deepEqual(await bodies('two'), [], 'unchanged: silent');
		context = { ...context, editTools: [] };
		const [second] = await bodies('three');
		assert.match(second ?? '', /^- Runs without asking: reading and searching \(Read, List, Glob, Grep\) and file changes \(none offered\)\.$/m);
	});

	it('an untrusted workspace is told it is read-only whatever the mode', async () => {
		const { agent, provider } = setup({ mode: 'full-access', permissions: () => ({ ...OPEN_CONTEXT, trusted: false }) });
		assert.deepEqual(await say(agent, provider, 'go'), ['Permission mode: full-access, but the workspace is not trusted (Restricted Mode): you may only read and search (Read, List, Glob, Grep). Every file change and command is refused, whatever the mode and the rules, until the user trusts the workspace.']);
	});

	it('is recorded with the chat and restored when it is reopened; a new chat takes the setting', async () => {
		const { agent, sessions, provider } = setup();
		agent.selectMode('full-access');
		await say(agent, provider, 'remember me');
		const id = sessions.current.id;
		sessions.newSession();
		assert.equal(viewOfAgent(agent).mode, 'ask');
		sessions.open(id);
		assert.equal(viewOfAgent(agent).mode, 'full-access', 'the reopened chat is in its own mode');
		assert.deepEqual(await say(agent, provider, 'again'), [], 'its mode was already delivered in it: not repeated on reopen');
	});

	it('a mode chosen in a chat with nothing in it yet is written with its first message, so an unused chat stays unstored', async () => {
		const { agent, sessions, provider, library } = setup();
		agent.selectMode('plan');
		const store = library.stores.get(sessions.current.id);
		assert.ok(store);
		assert.equal(store.records.length, 0, 'nothing written for a chat not used yet');
		await say(agent, provider, 'look around');
		assert.deepEqual(store.records.slice(0, 2).map((record) => [record.kind, record.kind === 'meta' ? record.mode : undefined]), [['meta', 'plan'], ['user', undefined]]);
	});

	it('a recorded mode this version does not know is dropped, never the title beside it', () => {
		const record = parseTranscriptRecord({ kind: 'meta', at: 1, title: 'Kept', mode: 'yolo' });
		assert.ok(record.kind === 'meta');
		assert.deepEqual([record.title, record.mode], ['Kept', undefined]);
	});

	it('a chat another window writes keeps the chosen mode in memory, and its copy takes it', async () => {
		const { agent, sessions, provider, library } = setup();
		await say(agent, provider, 'first');
		const id = sessions.current.id;
		sessions.newSession();
		library.heldElsewhere.add(id);
		sessions.open(id);
		assert.equal(sessions.current.isReadOnly, true);
		agent.selectMode('auto-edit');
		assert.equal(viewOfAgent(agent).mode, 'auto-edit');
		await say(agent, provider, 'continue here');
		assert.notEqual(sessions.current.id, id, 'continued in a copy');
		assert.equal(sessions.current.mode, 'auto-edit');
		assert.equal(viewOfAgent(agent).mode, 'auto-edit');
	});

	it('the mode in effect decides the calls: a one-message override runs a command without asking, then the chat asks again', async () => {
		ran.length = 0;
		const { agent, provider, asked } = setup();
		provider.script({ toolCalls: [{ id: 'c1', name: 'Run', input: { command: 'make' } }] }, { text: 'done' });
		await agent.startTurn('build it', { mode: 'full-access' });
		assert.deepEqual([ran, asked], [['make'], []], 'full-access for this message: no question');
		assert.equal(viewOfAgent(agent).mode, 'ask', 'the chat\'s mode is unchanged');
		provider.script({ toolCalls: [{ id: 'c2', name: 'Run', input: { command: 'make' } }] }, { text: 'done' });
		await agent.startTurn('again');
		assert.deepEqual([ran, asked], [['make', 'make'], ['Run make']], 'the next message is in the chat\'s mode: asked');
	});

	it('rules from the agent\'s environment: an allow rule runs without asking in ask mode, a deny rule refuses, a protected path asks in full-access', async () => {
		ran.length = 0;
		let rules = parsePermissionRules({ allow: ['Run(echo*)'], deny: ['Run(rm *)'] }).rules;
		const { agent, provider, asked, titles, sessions } = setup({ permissions: () => ({ ...OPEN_CONTEXT, rules }) });
		provider.script(
			{ toolCalls: [{ id: 'c1', name: 'Run', input: { command: 'echo hi' } }, { id: 'c2', name: 'Run', input: { command: 'rm -rf build' } }, { id: 'c3', name: 'Run', input: { command: 'echo hi && ls' } }] },
			{ text: 'done' },
		);
		await agent.startTurn('go');
		assert.deepEqual(ran, ['echo hi', 'echo hi && ls']);
		assert.deepEqual(asked, ['Run echo hi && ls'], 'only the line a rule does not wholly cover is asked about');
		const refused = sessions.current.records.find((record) => record.kind === 'tool-result' && record.callId === 'c2');
		assert.ok(refused?.kind === 'tool-result');
		assert.equal(refused.isError, true);
		assert.equal(refused.verdict, undefined, 'nobody was asked');
		assert.match(refused.content ?? '', /^Not run: the rule Run\(rm \*\) in aside\.permissions\.rules "deny" refuses it\. Run did not run/);

		rules = parsePermissionRules({ allow: ['Edit'] }).rules;
		agent.selectMode('full-access');
		asked.length = 0;
		provider.script({ toolCalls: [{ id: 'c4', name: 'Edit', input: { path: '.vscode/settings.json' } }, { id: 'c5', name: 'Edit', input: { path: 'src/a.ts' } }] }, { text: 'done' });
		await agent.startTurn('edit');
		assert.deepEqual(asked, ['Edit .vscode/settings.json'], 'a protected path asks in full-access, even with an allow rule');
		assert.equal(titles.at(-1), 'Edit a file (.vscode/settings.json is under .vscode/, a protected path: Aside asks before changing it in every mode)', 'the person reads why');
		assert.equal(titles[0], 'Run a command', 'a question the mode asks needs no reason');
	});

	it('rules name reads too: a deny rule refuses a Read, an ask rule asks, and a Read no rule names runs', async () => {
		const rules = parsePermissionRules({ deny: ['Read(**/.env)'], ask: ['Read(secrets/**)'] }).rules;
		const { agent, provider, asked, sessions } = setup({ mode: 'full-access', permissions: () => ({ ...OPEN_CONTEXT, rules }) });
		provider.script(
			{ toolCalls: [{ id: 'r1', name: 'Read', input: { path: 'app/.env' } }, { id: 'r2', name: 'Read', input: { path: 'secrets/key.txt' } }, { id: 'r3', name: 'Read', input: { path: 'src/a.ts' } }] },
			{ text: 'done' },
		);
		await agent.startTurn('read them');
		assert.deepEqual(asked, ['Read {"path":"secrets/key.txt"}']);
		const results = sessions.current.records.flatMap((record) => (record.kind === 'tool-result' ? [[record.callId, record.content]] : []));
		assert.deepEqual(results, [
			['r1', 'Not run: the rule Read(**/.env) in aside.permissions.rules "deny" refuses it. Read did not run; do not retry it unchanged (aside.permissions, docs/permissions.md).'],
			['r2', 'contents of secrets/key.txt'],
			['r3', 'contents of src/a.ts'],
		]);
	});

	it('an untrusted workspace refuses a change whatever the mode, even if a tool were offered', async () => {
		const { agent, provider, asked, sessions } = setup({ mode: 'full-access', permissions: () => ({ ...OPEN_CONTEXT, trusted: false }) });
		provider.script({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] }, { text: 'done' });
		await agent.startTurn('edit');
		assert.deepEqual(asked, []);
		const result = sessions.current.records.find((record) => record.kind === 'tool-result');
		assert.ok(result?.kind === 'tool-result');
		assert.match(result.content ?? '', /^Not run: the workspace is not trusted \(Restricted Mode\)/);
	});
});
