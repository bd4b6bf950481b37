// The tool calls of a turn: who is asked when (the mode, a confirmation that must always ask), a
// denial as the result and a verdict reminder, the step limit, and what the observers hear.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { edits, lastText, turnHarness } from '../testing/turnHarness';
import type { ChatSession } from './session';
import type { TurnObservers } from './observers';
import type { ToolHooks } from '../hooks/toolHooks';
import { catalogTools } from '../mcp/catalogTools';
import { mcpTools } from '../mcp/mcpTools';
import type { ServerConfig } from '../mcp/serverConfig';

function mcpConfig(name: string): ServerConfig {
	return { name, transport: 'stdio', command: 'x', args: [], env: {}, origin: { kind: 'user' }, disabled: false, disabledTools: [], trustAnnotations: false } as unknown as ServerConfig;
}

describe('the tool calls of a turn', () => {
	it('asks before a write in ask mode; a denial is a tool error and a permission.verdict reminder at the next WAIT', async () => {
		edits.length = 0;
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'a.ts' } }] }, { text: 'OK, I will not.' });
		const { session, turn, asked } = turnHarness(provider, { decide: () => ({ granted: false, note: 'not that file' }) });
		await turn().run('change a.ts', new AbortController().signal);
		assert.deepEqual(asked, ['Edit a.ts']);
		assert.deepEqual(edits, []);
		const result = session.records.find((record) => record.kind === 'tool-result');
		assert.ok(result?.kind === 'tool-result');
		assert.deepEqual([result.isError, result.verdict], [true, 'denied']);
		assert.match(result.content ?? '', /The user denied this call; it did not run\. The user said: not that file/);
		const second = provider.requests[1]?.messages ?? [];
		assert.equal(second.at(-2)?.role, 'tool', 'the verdict comes after the result, never between call and result');
		assert.match(lastText(second), /^<system-reminder key="permission\.verdict">\nPERMISSION DENIED: the user refused Edit on a\.ts/);
	});

	it('auto-edit writes without asking; plan mode offers no write tool', async () => {
		edits.length = 0;
		const autoProvider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'b.ts' } }] }, { text: 'done' });
		const auto = turnHarness(autoProvider, { mode: 'auto-edit' });
		await auto.turn().run('edit b', new AbortController().signal);
		assert.deepEqual(auto.asked, []);
		assert.deepEqual(edits, ['b.ts']);

		const planProvider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'c.ts' } }] }, { text: 'done' });
		const plan = turnHarness(planProvider, { mode: 'plan' });
		await plan.turn().run('edit c', new AbortController().signal);
		assert.deepEqual(planProvider.requests[0]?.tools.map((tool) => tool.name), ['Read']);
		const result = plan.session.records.find((record) => record.kind === 'tool-result');
		assert.ok(result?.kind === 'tool-result');
		assert.match(result.content ?? '', /no tool named "Edit" in plan mode/);
		assert.deepEqual(edits, ['b.ts']);
	});

	it('a write the confirmation says must always be asked about is asked about in auto-edit too; a denial does not run it', async () => {
		edits.length = 0;
		const provider = new ScriptedProvider(
			{ toolCalls: [{ id: 'c1', name: 'Edit', input: { path: 'linked.ts' } }, { id: 'c2', name: 'Edit', input: { path: 'plain.ts' } }, { id: 'c3', name: 'Edit', input: { path: 'linked2.ts' } }] },
			{ text: 'done' },
		);
		const { turn, asked, session } = turnHarness(provider, { mode: 'auto-edit', decide: () => ({ granted: false }) });
		const seen: string[] = [];
		const original = session.reminders.queueTurnEvent.bind(session.reminders);
		session.reminders.queueTurnEvent = (owner, event) => {
			seen.push(event.key);
			return original(owner, event);
		};
		await turn().run('edit them', new AbortController().signal);
		assert.deepEqual(asked, ['Edit linked.ts', 'Edit linked2.ts']);
		assert.deepEqual(edits, ['plain.ts'], 'the plain file is edited without asking; the denied ones are not');
		assert.deepEqual(seen, ['permission.verdict', 'permission.verdict']);
		const verdicts = session.records.flatMap((record) => (record.kind === 'tool-result' ? [record.verdict ?? 'not asked'] : []));
		assert.deepEqual(verdicts, ['denied', 'not asked', 'denied']);
	});

	it('at the step limit the final request carries the nudge and tool calls are not run', async () => {
		const provider = new ScriptedProvider(
			{ toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a' } }] },
			{ toolCalls: [{ id: 'c2', name: 'Read', input: { path: 'b' } }] },
		);
		const { session, turn } = turnHarness(provider, { maxSteps: 2 });
		const outcome = await turn().run('loop', new AbortController().signal);
		assert.equal(outcome.outcome, 'step-limit');
		assert.match(lastText(provider.requests[1]?.messages ?? []), /key="agent\.nudge">\nThis is your final step/);
		const results = session.records.filter((record) => record.kind === 'tool-result');
		assert.match(results[1]?.kind === 'tool-result' ? (results[1].content ?? '') : '', /^Not run: this was the last step/);
	});

	it('observers hear of each tool call before it runs and after its result is recorded, and queue their events before each WAIT', async () => {
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.ts' } }] }, { text: 'done' });
		const log: string[] = [];
		// The observers need the session that turnHarness() makes from them.
		const made: { session?: ChatSession } = {};
		const observers: TurnObservers = {
			beforeTool: (call, owner) => {
				log.push(`before ${call.name} ${owner.id} recorded=${String(made.session?.records.at(-1)?.kind)}`);
				return Promise.resolve();
			},
			afterTool: (call, result, owner) => {
				log.push(`after ${call.name} ${result.isError ? 'error' : 'ok'} ${owner.id} recorded=${String(made.session?.records.at(-1)?.kind)}`);
				made.session?.reminders.queueTurnEvent(owner, { type: 'editedFiles', key: 'files.edited', body: 'a.ts changed outside Aside\'s tools.' });
				return Promise.resolve();
			},
			beforeWait: (owner) => {
				log.push(`before WAIT ${owner.id} request=${provider.requests.length + 1}`);
				return Promise.resolve();
			},
			endOwner: (owner) => {
				log.push(`end ${owner.id}`);
			},
		};
		const t = turnHarness(provider, { observers });
		made.session = t.session;
		await t.turn().run('read a.ts', new AbortController().signal);
		assert.deepEqual(log, ['before WAIT turn-1 request=1', 'before Read turn-1 recorded=assistant', 'after Read ok turn-1 recorded=tool-result', 'before WAIT turn-1 request=2', 'end turn-1']);
		assert.match(lastText(provider.requests[1]?.messages ?? []), /^<system-reminder key="files\.edited">\na\.ts changed outside Aside's tools\.\n<\/system-reminder>$/);
	});

	it('a stand-in (McpCall) is hooked, asked and run as the MCP tool it names; its record stays the model\'s call', async () => {
		const ran: string[] = [];
		const listed = [{ config: mcpConfig('docs'), tools: [{ name: 'publish', description: 'Publishes.', inputSchema: { type: 'object' }, annotations: {} }] }];
		const { tools } = mcpTools(listed, (server, tool, args) => {
			ran.push(`${server}/${tool} ${JSON.stringify(args)}`);
			return Promise.resolve({ content: [{ type: 'text', text: 'published' }], isError: false });
		}, 1000);
		const { call } = catalogTools({ mcpTools: () => tools, connected: () => ['docs'], withResources: () => [], listResources: () => Promise.resolve([]) });
		const hooked: string[] = [];
		const hooks: ToolHooks = {
			beforeTool: (hookCall) => {
				hooked.push(`before ${hookCall.name} ${JSON.stringify(hookCall.input)}`);
				return Promise.resolve({ outcomes: [] });
			},
			afterTool: (hookCall) => {
				hooked.push(`after ${hookCall.name}`);
				return Promise.resolve({ outcomes: [] });
			},
		};
		const provider = new ScriptedProvider(
			{ toolCalls: [{ id: 'c1', name: 'McpCall', input: { server: 'docs', tool: 'publish', arguments: { page: 'a' } } }, { id: 'c2', name: 'McpCall', input: { server: 'docs', tool: 'delete' } }] },
			{ text: 'done' },
		);
		const { session, turn, asked } = turnHarness(provider, { tools: [call], hooks, decide: (tool) => ({ granted: tool === 'mcp__docs__publish' }) });
		await turn().run('publish a', new AbortController().signal);
		assert.equal(asked.length, 1);
		assert.match(asked[0] ?? '', /^mcp__docs__publish Server: docs/, 'the card is the MCP tool\'s own');
		assert.deepEqual(ran, ['docs/publish {"page":"a"}']);
		assert.deepEqual(hooked, ['before mcp__docs__publish {"page":"a"}', 'after mcp__docs__publish'], 'hooks match the MCP tool\'s name; the unknown tool never reaches them');
		const results = session.records.flatMap((record) => (record.kind === 'tool-result' ? [`${record.name} ${record.isError ? 'error' : 'ok'}: ${record.content ?? ''}`] : []));
		assert.equal(results[0], 'McpCall ok: published');
		assert.match(results[1] ?? '', /^McpCall error: The MCP server "docs" has no tool named "delete" \(its tools: publish\)/);
	});
});
