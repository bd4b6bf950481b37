// A chat for Restore… specs: the Agent over a temporary workspace with the real Read, Write and
// Edit tools, the session's observers as the extension wires them, the checkpoint store in
// memory (the tools and restores keep through it), and plan files in a temporary folder.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { Agent } from '../agent/agent';
import { SessionObservers } from '../agent/observers';
import { DirectoryPlanFiles } from '../agent/planFiles';
import type { ModelSource } from '../agent/ports';
import { ChatSessions } from '../agent/sessions';
import { Emitter } from '../base/event';
import type { ChatMessage } from '../providers/messages';
import { editTool } from '../tools/edit';
import { readTool } from '../tools/read';
import { writeTool } from '../tools/write';
import type { UserRecord } from '../transcript/records';
import { scriptedModels, testPorts } from './agentPorts';
import { FakeFileEvents } from './fakeFileEvents';
import { MemoryCheckpointStore } from './memoryCheckpoints';
import { writeFileAt } from './memoryFiles';
import { NodeWorkspaceFs, nodeToolContext, tempWorkspace } from './nodeWorkspace';
import { RecordingLogger } from './recordingLogger';
import { ScriptedProvider, type ScriptedReply } from './scriptedProvider';
import { MemoryLibrary, testEnvironment } from './sessions';
import { agentFeatures, restoreOf } from '../features/features';

export const keysIn = (text: string): string[] => [...text.matchAll(/<system-reminder key="([^"]+)">/g)].map((match) => match[1] ?? '');
export const allText = (messages: readonly ChatMessage[]): string => JSON.stringify(messages);

export function restoreChat(t: TestContext) {
	const folder = tempWorkspace('aside-restore-');
	const storage = tempWorkspace('aside-restore-plans-');
	const root = folder.root;
	const write = (name: string, text: string) => writeFileAt(join(root, name), text, Date.now());
	const read = (name: string) => readFileSync(join(root, name), 'utf8');
	write('src/deep/AGENTS.md', 'Deep rules.\n');
	write('a.ts', 'export const a = 1;\n');
	write('src/deep/x.ts', 'export const x = 1;\n');
	const provider = new ScriptedProvider();
	const models: ModelSource = { ...scriptedModels(provider), contextWindow: () => 100_000 };
	const library = new MemoryLibrary();
	const sessions = new ChatSessions(library, testEnvironment());
	const log = new RecordingLogger();
	const events = new FakeFileEvents();
	const observers = new SessionObservers(sessions.current.reminders, new NodeWorkspaceFs(), events, () => [root], {}, log);
	const checkpoints = new MemoryCheckpointStore();
	const agent = new Agent(
		{
			features: agentFeatures(),
			sessions,
			models,
			settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'full-access' }, onDidChange: new Emitter<unknown>().event },
			system: () => 'You are Aside.',
			observers: () => observers,
			planFiles: new DirectoryPlanFiles(storage.root),
		},
		{
			...testPorts(models, { tools: () => [readTool, writeTool, editTool], context: (signal) => nodeToolContext([root], signal, observers.seen) }),
			checkpoints,
		},
	);
	t.after(() => {
		agent.dispose();
		observers.dispose();
		folder.dispose();
		storage.dispose();
	});
	const session = sessions.current;
	const users = (): UserRecord[] => session.records.filter((record): record is UserRecord => record.kind === 'user');
	/** A turn; its tools' writes are kept through the ports' checkpoint store, as in the real chat. */
	const turn = async (text: string, replies: readonly ScriptedReply[]) => {
		provider.script(...replies);
		const outcome = await agent.startTurn(text);
		assert.equal(outcome.outcome, 'done', outcome.error);
	};
	const call = (name: string, input: unknown, id = `${name}-${JSON.stringify(input).length}`): ScriptedReply => ({ toolCalls: [{ id, name, input }] });
	/** The chat's Restore… (preview, then apply), as the view's part drives it. */
	const restorer = restoreOf(agent, session);
	return { root, write, read, provider, session, sessions, library, agent, observers, events, checkpoints, turn, call, users, restorer };
}

