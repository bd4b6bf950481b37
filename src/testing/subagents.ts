// Sub-agents in memory: a provider that answers concurrent requests by what they contain (a
// child's prompt, its system prompt), profiles like the built-ins, and an Agent over both with
// tools of each kind. Never bundled.
import assert from 'node:assert/strict';
import * as z from 'zod';
import { Agent, type AgentSettings } from '../agent/agent';
import type { FeatureState } from '../agent/chatFeature';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { PermissionContext } from '../agent/permissions/policy';
import type { AgentPorts } from '../agent/ports';
import type { CheckpointStore } from '../checkpoints/types';
import { ChatSessions } from '../agent/sessions';
import type { AgentProfile, AgentProfiles, ProfileTools } from '../agent/subagents/profile';
import { isAborted } from '../base/async';
import { Emitter, type Event } from '../base/event';
import { type ChatProvider, type ChatRequest, type ModelInfo, ProviderError, type StreamEvent } from '../providers/provider';
import { type Tool, type ToolContext, touchesNothing } from '../tools/tool';
import type { TurnOutcomeKind } from '../vocabulary/outcomes';
import { DEFAULT_REMINDERS } from '../reminders/builtin/defaults';
import type { ReminderDefinition } from '../reminders/definition';
import { scriptedModels, testPorts } from './agentPorts';
import { FakeClock, SequentialIds } from './fakeClock';
import { RecordingLogger } from './recordingLogger';
import { MemoryLibrary, testEnvironment } from './sessions';
import { agentFeatures } from '../features/features';

export interface MatchedStep {
	/** Taken by the first request whose JSON contains this; without it, by any request no other step matches (in order). */
	readonly match?: string;
	readonly text?: string;
	readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
	/** Accepts and streams `text`, then waits for `release()` (or the request's abort) before the rest. */
	readonly hold?: boolean;
	/** Accepts and streams `text`, then waits until the request is aborted. */
	readonly hang?: boolean;
	/** Fails before anything is accepted, as a server error with this message. */
	readonly fail?: string;
}

/** A request waiting on a `hold` step. */
export interface HeldRequest {
	readonly request: ChatRequest;
	release(): void;
}

export class MatchingProvider implements ChatProvider {
	readonly id = 'openai-compatible' as const;
	readonly requests: ChatRequest[] = [];
	readonly held: HeldRequest[] = [];
	private readonly steps: MatchedStep[] = [];
	private running = 0;
	/** The most requests that were streaming at the same time. */
	maxRunning = 0;
	private readonly _onDidChange = new Emitter<void>();
	/** A request arrived, was held or finished. */
	readonly onDidChange: Event<void> = this._onDidChange.event;

	script(...steps: MatchedStep[]): void {
		this.steps.push(...steps);
	}

	private take(request: ChatRequest): MatchedStep {
		const body = JSON.stringify(request);
		let index = this.steps.findIndex((step) => step.match !== undefined && body.includes(step.match));
		if (index < 0) {
			index = this.steps.findIndex((step) => step.match === undefined);
		}
		return index < 0 ? { text: 'ok' } : (this.steps.splice(index, 1)[0] ?? { text: 'ok' });
	}

	async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
		this.requests.push(request);
		this.running++;
		this.maxRunning = Math.max(this.maxRunning, this.running);
		this._onDidChange.fire();
		try {
			await Promise.resolve();
			if (signal.aborted) {
				throw new ProviderError('cancelled', 'The request was cancelled.');
			}
			const step = this.take(request);
			if (step.fail !== undefined) {
				throw new ProviderError('server', step.fail);
			}
			yield { type: 'accepted' };
			if (step.text) {
				yield { type: 'text', text: step.text };
			}
			if (step.hold || step.hang) {
				await new Promise<void>((resolve) => {
					signal.addEventListener('abort', () => {
						resolve();
					}, { once: true });
					if (step.hold) {
						this.held.push({ request, release: resolve });
					}
					this._onDidChange.fire();
				});
				if (isAborted(signal)) {
					throw new ProviderError('cancelled', 'The request was cancelled.');
				}
			}
			for (const call of step.toolCalls ?? []) {
				yield { type: 'tool-call', ...call };
			}
			yield { type: 'stop', reason: step.toolCalls?.length ? 'tool-use' : 'end' };
		} finally {
			this.running--;
			this._onDidChange.fire();
		}
	}

	/** Releases every held request. */
	releaseAll(): void {
		for (const held of this.held.splice(0)) {
			held.release();
		}
	}

	listModels(): Promise<readonly ModelInfo[]> {
		return Promise.resolve([{ id: 'scripted', name: 'Scripted model' }]);
	}
}

/** Resolves once `condition` holds, checked now and at each `event`. Never times out by itself: the test runner's timeout does. */
export function when(event: Event<unknown>, condition: () => boolean): Promise<void> {
	return new Promise((resolve) => {
		if (condition()) {
			resolve();
			return;
		}
		const subscription = event(() => {
			if (condition()) {
				subscription.dispose();
				resolve();
			}
		});
	});
}

export function profile(name: string, tools: ProfileTools, extra: Partial<AgentProfile> = {}): AgentProfile {
	return { name, description: `The ${name} agent.`, tools, reminders: [], canSpawn: false, prompt: `You are the ${name} agent.`, source: { kind: 'builtin' }, ...extra };
}

/** Like the built-ins: explore (read-only), general (the parent's tools), verify (read-only plus Run). */
export const TEST_PROFILES: readonly AgentProfile[] = [
	profile('explore', { kind: 'read-only' }),
	profile('general', { kind: 'inherit' }),
	profile('verify', { kind: 'named', names: ['Lookup', 'Run'] }),
];

export class MemoryProfiles implements AgentProfiles {
	private readonly _onDidChange = new Emitter<void>();
	readonly onDidChange = this._onDidChange.event;

	constructor(private profiles: readonly AgentProfile[] = TEST_PROFILES) {}

	current(): readonly AgentProfile[] {
		return this.profiles;
	}

	problems(): never[] {
		return [];
	}

	set(profiles: readonly AgentProfile[]): void {
		this.profiles = profiles;
		this._onDidChange.fire();
	}
}

/** One tool of each kind: Lookup reads, Change writes (asks in ask mode), Run runs. */
export function testTools(log: string[]): Tool[] {
	const lookup: Tool<{ name: string }> = {
		name: 'Lookup',
		description: 'Finds where a name is defined.',
		kind: 'read',
		input: z.object({ name: z.string() }),
		touches: touchesNothing,
		run: ({ name }) => {
			log.push(`Lookup ${name}`);
			return Promise.resolve({ content: `${name} is in src/${name}.ts.` });
		},
	};
	const change: Tool<{ file: string }> = {
		name: 'Change',
		description: 'Changes a file.',
		kind: 'write',
		input: z.object({ file: z.string() }),
		confirm: ({ file }) => Promise.resolve({ title: `Change ${file}?`, target: file }),
		touches: touchesNothing,
		run: async ({ file }, context) => {
			log.push(`Change ${file}`);
			// As applyChanges does: the call's checkpoint is kept before it writes.
			await context.checkpoint?.keep([{ path: `/ws/${file}`, shown: file, before: `old ${file}`, after: `new ${file}` }]);
			return { content: `Changed ${file}.` };
		},
	};
	const run: Tool<{ command: string }> = {
		name: 'Run',
		description: 'Runs a command.',
		kind: 'run',
		input: z.object({ command: z.string() }),
		confirm: ({ command }) => Promise.resolve({ title: 'Run a command?', target: command }),
		touches: touchesNothing,
		run: ({ command }) => {
			log.push(`Run ${command}`);
			return Promise.resolve({ content: `ran ${command}` });
		},
	};
	return [lookup, change, run];
}

export interface SubagentSetup {
	readonly provider: MatchingProvider;
	readonly agent: Agent;
	readonly sessions: ChatSessions;
	readonly library: MemoryLibrary;
	readonly ports: AgentPorts;
	readonly profiles: MemoryProfiles;
	readonly log: RecordingLogger;
	/** What the tools did, in order. */
	readonly ran: string[];
	/** Each settled child: its path and outcome. */
	readonly settled: [string, TurnOutcomeKind][];
	readonly settings: { current: AgentSettings };
}

/** An Agent whose chat runs sub-agents over a MatchingProvider; `settings` may be changed between turns. */
export function subagentSetup(
	options: {
		readonly profiles?: readonly AgentProfile[];
		readonly settings?: Partial<AgentSettings>;
		readonly reminders?: readonly ReminderDefinition[];
		readonly permissions?: () => PermissionContext;
		readonly checkpoints?: CheckpointStore;
		/** Real tools on a real workspace instead of the test tools. */
		readonly workspace?: { readonly tools: readonly Tool[]; readonly context: (signal: AbortSignal) => ToolContext };
	} = {},
): SubagentSetup {
	const provider = new MatchingProvider();
	const models = scriptedModels(provider);
	const clock = new FakeClock();
	const library = new MemoryLibrary();
	const environment = testEnvironment(clock, new SequentialIds('s'));
	const sessions = new ChatSessions(library, { ...environment, reminderDefaults: () => [...DEFAULT_REMINDERS, ...(options.reminders ?? [])] });
	const ran: string[] = [];
	const tools = options.workspace?.tools ?? testTools(ran);
	const log = new RecordingLogger();
	const offered = (mode: PermissionMode) => (mode === 'plan' ? tools.filter((tool) => tool.kind === 'read') : tools);
	const tested = testPorts(models, { tools: offered, runtime: { clock, log }, ...(options.workspace ? { context: options.workspace.context } : {}) });
	const ports: AgentPorts = options.checkpoints ? { ...tested, checkpoints: options.checkpoints } : tested;
	const profiles = new MemoryProfiles(options.profiles);
	const settled: [string, TurnOutcomeKind][] = [];
	const settings = { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'full-access' as const, agentsMaxSteps: 8, agentsMaxConcurrent: 3, ...options.settings } };
	const agent = new Agent(
		{
			// A probe beside the real features: every child's settlement, in order.
			features: [...agentFeatures(), { id: 'settled-probe', open: (): FeatureState => ({ afterChildSettled: (path, outcome) => { settled.push([path, outcome]); } }) }],
			sessions,
			models,
			settings: { get current() { return settings.current; }, onDidChange: new Emitter<unknown>().event },
			system: () => 'You are Aside.',
			profiles,
			...(options.permissions ? { permissions: options.permissions } : {}),
		},
		ports,
	);
	return { provider, agent, sessions, library, ports, profiles, log, ran, settled, settings };
}

/** Every text the request carries, in order: messages' text parts, tool results. */
export function textOf(request: ChatRequest | undefined): string {
	assert.ok(request, 'the request was sent');
	return request.messages
		.map((message) => (message.role === 'tool' ? message.content : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')))
		.join('\n');
}

/** The keys of the reminder blocks a request carries. */
export function reminderKeys(request: ChatRequest | undefined): string[] {
	return [...textOf(request).matchAll(/<system-reminder key="([^"]+)">/g)].map((match) => match[1] ?? '');
}

