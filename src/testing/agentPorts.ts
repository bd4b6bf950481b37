// The agent's ports for tests: a model dispatch over one provider (a scripted one, usually), and
// a whole set of ports over the tool registry with a fake runtime.
import { Agent } from '../agent/agent';
import type { AgentPorts, ModelDispatch, ModelSource, Runtime } from '../agent/ports';
import { modelDispatch } from '../agent/dispatch';
import type { PermissionMode } from '../vocabulary/permissionModes';
import { registryToolBox } from '../agent/toolBox';
import { Emitter } from '../base/event';
import { SeenTexts } from '../observe/seenTexts';
import type { ChatProvider } from '../providers/provider';
import type { Tool, ToolContext } from '../tools/tool';
import { FakeClock, SequentialIds } from './fakeClock';
import { RecordingLogger } from './recordingLogger';
import { testSessions } from './sessions';
import { agentFeatures, compactionOf, planDecisionOf } from '../features/features';
import type { PlanChoice } from '../agent/plans';
import type { ChatSession } from '../agent/session';
import type { BetweenTurns } from '../agent/betweenTurns';

/** Every request goes straight to `provider`'s model `model`: no retries, no idle timeout. */
export function directDispatch(provider: ChatProvider, model = 'scripted'): ModelDispatch {
	return {
		resolve: () => Promise.resolve({ provider, model }),
		stream: (resolved, request, signal) => resolved.provider.stream(request, signal),
	};
}

/** One model, `scripted`, served by `provider`: the model source most agent specs need. */
export function scriptedModels(provider: ChatProvider): ModelSource {
	return {
		providerId: 'openai-compatible',
		configuredModel: 'scripted',
		resolve: () => Promise.resolve({ provider, model: 'scripted' }),
		listModels: () => Promise.resolve({ models: [{ id: 'scripted', name: 'Scripted' }] }),
		selectModel: () => Promise.resolve(),
		onDidChange: new Emitter<void>().event,
	};
}

export interface TestPortOptions {
	/** The tools on offer in each mode; none when absent. */
	readonly tools?: (mode: PermissionMode) => readonly Tool[];
	readonly context?: (signal: AbortSignal) => ToolContext;
	readonly runtime?: Partial<Runtime>;
}

/** The ports an Agent over `models` gets in tests: the registry's tool box, one attempt per request, a fake clock. */
export function testPorts(models: ModelSource, options: TestPortOptions = {}): AgentPorts {
	return {
		tools: registryToolBox(options.tools ?? (() => []), options.context ?? ((signal) => ({ roots: ['/ws'], signal, seen: new SeenTexts() }) as never)),
		dispatch: modelDispatch(models, { retries: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 } }),
		runtime: { clock: new FakeClock(), ids: new SequentialIds('a'), log: new RecordingLogger(), ...options.runtime },
	};
}

/** An Agent over `models` in memory: five steps, ask mode, no tools, fixed settings. */
export function testAgent(models: ModelSource, sessions = testSessions(new FakeClock(), new SequentialIds('s'))): Agent {
	return new Agent(
		{
			features: agentFeatures(),
			sessions,
			models,
			settings: { current: { maxOutputTokens: 1000, maxSteps: 5, permissionMode: 'ask' }, onDidChange: new Emitter<unknown>().event },
			system: () => 'system',
		},
		testPorts(models),
	);
}

/** The chat features' agent sides, for specs below src/features/ that build their own Agent. */
export const testFeatures = agentFeatures;

/** The person's compaction of `session` (the Compact button, `/compact`), for specs below src/features/. */
export function compactChat(agent: Agent, session: ChatSession, instructions?: string): Promise<string | undefined> {
	return compactionOf(agent, session).compact(instructions);
}

/** A chat's between-turns port for a feature state that never works between turns: any use fails the spec. */
export function unusedBetweenTurns(): BetweenTurns {
	const unused = (): never => {
		throw new Error('This spec\'s feature state was not expected to work on the chat between turns.');
	};
	return {
		get ports(): never {
			return unused();
		},
		observers: unused, refusal: unused, run: unused, rootRequest: unused, startTurn: unused,
		startUnasked: unused, changed: unused, restored: unused, compacted: unused,
	};
}

/** The person's decision on the plan card of the current chat, for specs below src/features/. */
export function decidePlan(agent: Agent, sessions: { readonly current: ChatSession }, proposalId: string, choice: PlanChoice): string | undefined {
	return planDecisionOf(agent, sessions.current).decide(proposalId, choice);
}
