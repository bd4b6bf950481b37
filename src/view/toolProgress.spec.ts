// A running MCP call's progress as the chat receives it: the real Agent running the reference
// server's trigger-long-running-operation (over stdio), its views as the presenter sends them,
// each valid by the protocol — the bar there while the call runs, gone after, never recorded.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Agent } from '../agent/agent';
import { Emitter, waitForEvent } from '../base/event';
import { launchOf } from '../mcp/launch';
import { sdkConnector } from '../mcp/sdkConnector';
import { readUserServers } from '../mcp/serverConfig';
import { McpServers } from '../mcp/servers';
import { AgentView } from '../protocol/viewState';
import { FakeClock, SequentialIds } from '../testing/fakeClock';
import { scriptedModels, testFeatures, testPorts } from '../testing/agentPorts';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { testSessions } from '../testing/sessions';
import { AgentPresenter } from './agentView';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const LONG = 'mcp__everything__trigger-long-running-operation';

describe('an MCP call\'s progress in the agent view', () => {
	const servers = new McpServers({
		source: { read: () => readUserServers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }), onDidChange: new Emitter<void>().event },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, workspaceFolder: process.cwd(), readFile: () => Promise.reject(new Error('no env files here')) }),
		startupTimeoutMs: () => 20_000,
		requestTimeoutMs: () => 20_000,
		approve: () => Promise.resolve(true),
		output: () => ({ stderr: () => undefined, log: () => undefined }),
	});
	after(() => {
		servers.dispose();
	});

	it('shows the call\'s bar while it runs and none once it ended; the result and the records carry none of it', async () => {
		await servers.ready(new AbortController().signal);
		const provider = new ScriptedProvider({ toolCalls: [{ id: 'c1', name: LONG, input: { duration: 1, steps: 4 } }] }, { text: 'Done.' });
		const models = scriptedModels(provider);
		const sessions = testSessions(new FakeClock(), new SequentialIds('s'));
		const agent = new Agent(
			{
				features: testFeatures(),
				sessions,
				models,
				settings: { current: { maxOutputTokens: 1000, maxSteps: 5, permissionMode: 'full-access' }, onDidChange: new Emitter<unknown>().event },
				system: () => 'system',
			},
			testPorts(models, { tools: () => servers.tools() }),
		);
		const presenter = new AgentPresenter(agent);
		const views: AgentView[] = [];
		presenter.onDidChange((view) => views.push(AgentView.parse(view)));
		const ended = waitForEvent(agent.onDidEndTurn, () => true, 20_000, 'the turn');
		agent.submit('Run the long operation.');
		await ended;
		const shown = views.flatMap((view) => view.toolProgress ?? []);
		assert.ok(shown.length >= 2, `the bar was shown: ${JSON.stringify(shown)}`);
		assert.ok(shown.every((progress) => progress.callId === 'c1' && progress.tool === LONG));
		assert.ok(shown.some((progress) => progress.fraction !== undefined && progress.fraction > 0), 'determinate: the server gives a total');
		assert.equal(presenter.view().toolProgress, undefined, 'gone once the call ended');
		assert.equal(views.at(-1)?.toolProgress, undefined);
		const records = sessions.current.records;
		const result = records.find((record) => record.kind === 'tool-result');
		assert.equal(result?.kind === 'tool-result' ? result.content : undefined, 'Long running operation completed. Duration: 1 seconds, Steps: 4.');
		assert.doesNotMatch(JSON.stringify(records), /fraction|toolProgress|progressToken/, 'nothing of the bar is recorded');
		assert.equal(provider.requests[1]?.messages.at(-1)?.role, 'tool');
		agent.dispose();
	});
});
