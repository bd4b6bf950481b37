// The turn loop's specs share this: a session over a memory store, root turns of it built from
// ports over a scripted provider, and a scripted Read and Edit (turn.spec.ts, toolCalls.spec.ts).
import * as z from 'zod';
import type { PermissionDecision } from '../agent/approvals';
import type { TurnObservers } from '../agent/observers';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { AgentPorts } from '../agent/ports';
import { ChatSession } from '../agent/session';
import { Turn } from '../agent/turn';
import type { TurnScope, TurnUpdate } from '../agent/turnScope';
import type { ChatMessage } from '../providers/messages';
import type { TranscriptEntry } from '../transcript/records';
import { streamWithRetries } from '../providers/retry';
import { DEFAULT_REMINDERS } from '../reminders/builtin/defaults';
import { DEFAULT_REMINDER_CONFIG } from '../reminders/config';
import { prepareTool } from '../tools/registry';
import type { Tool, ToolContext } from '../tools/tool';
import type { ChangeReview } from '../agent/changeReview';
import { FakeClock, SequentialIds } from './fakeClock';
import { MemorySessionStore } from './memorySessionStore';
import { RecordingLogger } from './recordingLogger';
import type { ScriptedProvider } from './scriptedProvider';
import type { MessageAttachments } from '../agent/attachments';
import type { PromptHooks, ToolHooks } from '../hooks/toolHooks';
import { ChatPromptHooks } from '../agent/turnHooks';

export const readTool: Tool<{ path: string }> = {
	name: 'Read',
	description: 'Reads a file.',
	kind: 'read',
	input: z.object({ path: z.string() }),
	touches: ({ path }) => Promise.resolve({ reads: [`/ws/${path}`], writes: [] }),
	run: ({ path }) => Promise.resolve({ content: `1\tcontents of ${path}`, notices: [{ key: 'read.truncated', body: 'Showing lines 1–1 of 9.' }] }),
};

/** The paths the scripted Edit changed, in order (tests empty it first). */
export const edits: string[] = [];
export const editTool: Tool<{ path: string }> = {
	name: 'Edit',
	description: 'Edits a file.',
	kind: 'write',
	input: z.object({ path: z.string() }),
	touches: ({ path }) => Promise.resolve({ reads: [], writes: [`/ws/${path}`] }),
	// A path starting `linked` stands for a file with more than one hard link.
	confirm: ({ path }) =>
		Promise.resolve({ title: 'Edit a file', target: path, diff: '-old\n+new', ...(path.startsWith('linked') ? { alwaysAsk: `${path} has 2 hard links.` } : {}) }),
	run: ({ path }) => {
		edits.push(path);
		return Promise.resolve({ content: `Edited ${path}.` });
	},
};

export interface TurnHarnessOptions {
	readonly mode?: PermissionMode;
	/** How the person answers a call that asks; granted when absent. */
	readonly decide?: (tool: string) => PermissionDecision;
	readonly maxSteps?: number;
	/** Retry failed requests as the dispatch does (3 attempts, with recorded sleeps). */
	readonly retries?: boolean;
	readonly observers?: TurnObservers;
	/** More tools on offer outside plan mode (a real Edit, say), the context they run in, and the diff editor's review. */
	readonly tools?: readonly Tool[];
	readonly context?: (signal: AbortSignal) => ToolContext;
	readonly review?: ChangeReview;
	/** Automatic compaction on, at this share of the window (1000 tokens unless `contextWindow` says). */
	readonly autoCompactAt?: number;
	/** 0: unknown. */
	readonly contextWindow?: number;
	readonly maxOutputTokens?: number;
	/** The scope's onCompacted (the root's re-arms plan.reference). */
	readonly onCompacted?: () => void;
	/** What a message brings (mentions, skills). */
	readonly attachments?: MessageAttachments;
	/** The person's tool hooks. */
	readonly hooks?: ToolHooks;
	/** What the chat already holds (a reopened chat's records). */
	readonly loaded?: readonly TranscriptEntry[];
	/** The person's SessionStart / UserPromptSubmit / Stop hooks: the harness's chat runs them (`chatHooks`). */
	readonly prompt?: PromptHooks;
	/** The loop's live updates (status, streamed text, a call's progress). */
	readonly onUpdate?: (update: TurnUpdate) => void;
}

/** A session over a memory store and root turns of it over `provider`, with the scripted Read and Edit. */
export function turnHarness(provider: ScriptedProvider, options: TurnHarnessOptions = {}) {
	const store = new MemorySessionStore();
	const log = new RecordingLogger();
	const clock = new FakeClock();
	const ids = new SequentialIds('id');
	const session = new ChatSession('s1', store, { clock, ids, log, reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => DEFAULT_REMINDERS }, options.loaded ?? []);
	const asked: string[] = [];
	const sleeps: number[] = [];
	const ports: AgentPorts = {
		tools: {
			offered: (mode): Tool[] => (mode === 'plan' ? [readTool] : [readTool, editTool, ...(options.tools ?? [])]),
			specs: (tools) => tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: z.toJSONSchema(tool.input) })),
			invoke: async (tool, input, context) => {
				const parsed = tool.input.safeParse(input);
				return parsed.success ? tool.run(parsed.data, context) : { isError: true, content: `Invalid input for ${tool.name}.` };
			},
			prepare: (tool, input, context) => prepareTool(tool, input, context),
			context: options.context ?? ((signal) => ({ roots: ['/ws'], signal }) as never),
		},
		dispatch: {
			resolve: () => Promise.resolve({ provider, model: 'scripted' }),
			stream: (model, request, signal, onRetry) =>
				options.retries
					? streamWithRetries(model.provider, request, signal, {
							maxAttempts: 3,
							baseDelayMs: 100,
							maxDelayMs: 1000,
							sleep: (ms) => {
								sleeps.push(ms);
								return Promise.resolve();
							},
							onRetry,
						})
					: model.provider.stream(request, signal),
		},
		runtime: { clock, ids, log },
		...(options.review ? { review: options.review } : {}),
	};
	const chatHooks = options.prompt ? new ChatPromptHooks(options.prompt, session, { clock, ids, log }) : undefined;
	const onCompacted = options.onCompacted || chatHooks ? () => { chatHooks?.compacted(); options.onCompacted?.(); } : undefined;
	const scope: TurnScope = {
		engine: session.reminders,
		transcript: session,
		permissions: {
			ask: (request) => {
				asked.push(`${request.tool} ${request.confirmation.target}`);
				return Promise.resolve(options.decide?.(request.tool) ?? { granted: true });
			},
		},
		settings: () => ({
			maxOutputTokens: options.maxOutputTokens ?? 1000,
			maxSteps: options.maxSteps ?? 10,
			permissionMode: options.mode ?? 'ask',
			...(options.contextWindow === 0 ? {} : { contextWindow: options.contextWindow ?? 1000 }),
			...(options.autoCompactAt === undefined ? {} : { autoCompact: { at: options.autoCompactAt, warnAt: 0.6 } }),
		}),
		system: () => 'You are a test.',
		...(options.observers ? { observers: options.observers } : {}),
		...(onCompacted ? { onCompacted } : {}),
		...(options.attachments ? { attachments: options.attachments } : {}),
		...(options.hooks ? { hooks: options.hooks } : {}),
		...(options.onUpdate ? { onUpdate: options.onUpdate } : {}),
		...(chatHooks ? { prompt: chatHooks } : {}),
	};
	const turn = (id = 'turn-1') => new Turn(ports, scope, id);
	return { session, store, turn, asked, sleeps, log, ports, chatHooks };
}

/** The kinds of the session's records, in order. */
export const kinds = (session: ChatSession): string[] => session.records.map((record) => record.kind);
/** The text of the last message, when it is a user message: the reminders a request carried. */
export const lastText = (messages: readonly ChatMessage[]): string => {
	const last = messages.at(-1);
	return last?.role === 'user' && last.content[0]?.type === 'text' ? last.content[0].text : '';
};
