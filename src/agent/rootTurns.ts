// What a root turn of a chat is made of: its scope (the chat's engine and transcript, the gate, the
// observers, hooks and attachments, its features' hooks), its settings read at every step, the tools
// it offers and the sub-agents it may run. A manual compaction's request is built from the same.
import type { AgentEnvironment } from './agentEnvironment';
import { turnSettingsOf } from './agentSettings';
import type { Approvals } from './approvals';
import type { ChatFeatures } from './chatFeature';
import type { ChatModes } from './chatModes';
import type { ChatWork } from './chatWork';
import type { RootRequest } from './betweenTurns';
import type { ModelState } from './modelState';
import type { AgentPorts } from './ports';
import type { RunningChildren } from './runningChildren';
import type { ChatSession } from './session';
import { type ChildAgents, rootAgents } from './subagents/childAgents';
import type { TurnScope, TurnSettings, TurnUpdate } from './turnScope';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { ToolSpec } from '../providers/provider';

export interface RootTurnParts {
	readonly env: AgentEnvironment;
	readonly ports: AgentPorts;
	readonly approvals: Approvals;
	readonly features: ChatFeatures;
	readonly work: ChatWork;
	readonly children: RunningChildren;
	readonly modes: ChatModes;
	/** The context window of a model, when known; and the model a request resolved to, learnt. */
	readonly models: Pick<ModelState, 'windowOf' | 'use'>;
}

export class RootTurns {
	constructor(private readonly parts: RootTurnParts) {}

	/** A root step's limits and mode with `model` (read at every step): `override`, else the chat's mode. */
	settings(session: ChatSession, model: string, override?: PermissionMode): TurnSettings {
		const { env, modes, models } = this.parts;
		return turnSettingsOf(env.settings.current, override ?? modes.of(session), models.windowOf(model));
	}

	/** The tool list the root turn sends in `mode` (a manual compaction's request sends the same). */
	toolSpecs(session: ChatSession, mode: PermissionMode): readonly ToolSpec[] {
		const { tools } = this.parts.ports;
		const specs = tools.specs(tools.offered(mode));
		const agentSpec = this.agents(session, 'compaction')?.spec();
		return agentSpec ? [...specs, agentSpec] : specs;
	}

	/** Resolves the chat's model now: what a root request of `session` sends with it. */
	async request(session: ChatSession, signal: AbortSignal): Promise<RootRequest> {
		const model = await this.parts.ports.dispatch.resolve(signal);
		this.parts.models.use(model);
		const settings = this.settings(session, model.model);
		return { model, system: this.parts.env.system(), tools: this.toolSpecs(session, settings.permissionMode), settings };
	}

	/** A chat restore rolled part of the chat back: its features and plans are told. */
	restored(session: ChatSession): void {
		this.parts.features.afterRestore(session);
		this.parts.work.restored(session);
	}

	/** The chat was compacted (by a turn or by the person): its features, plans and prompt hooks are told. */
	compacted(session: ChatSession): void {
		this.parts.features.afterCompaction(session);
		this.parts.work.compacted(session);
	}

	/** The scope of root turn `turnId` of `session` (in `override` rather than the chat's mode, when given). */
	scope(session: ChatSession, turnId: string, override: PermissionMode | undefined, onUpdate: (update: TurnUpdate) => void): TurnScope {
		const { env, ports, approvals, features, work } = this.parts;
		const observers = env.observers?.();
		const prompt = work.promptHooksOf(session);
		const agents = this.agents(session, turnId);
		return {
			engine: session.reminders,
			transcript: session,
			permissions: approvals,
			...(env.permissions ? { permissionPolicy: env.permissions } : {}),
			// Read at every step: a window learned during the turn counts from the next request,
			// and so does a mode chosen in the toolbar while it runs (an override holds for the turn).
			settings: (model) => this.settings(session, model.model, override),
			onCompacted: () => {
				this.compacted(session);
			},
			system: env.system,
			onUpdate,
			...(observers ? { observers } : {}),
			...(env.attachments ? { attachments: env.attachments } : {}),
			...(env.hooks ? { hooks: env.hooks } : {}),
			...(prompt ? { prompt } : {}),
			toolAccess: (ownerPath) => features.toolAccess(session, ownerPath),
			...(ports.checkpoints ? { checkpoint: ports.checkpoints.recorder(session.id, turnId) } : {}),
			stopAfterStep: (id) => features.stopAfterStep(session, id),
			planFile: () => work.plansOf(session).current()?.file || undefined,
			...(agents ? { agents } : {}),
		};
	}

	/** The sub-agents root turn `turnId` of `session` may run; none without profiles. */
	private agents(session: ChatSession, turnId: string): ChildAgents | undefined {
		const { env, ports, children, features } = this.parts;
		const { profiles } = env;
		if (!profiles) {
			return undefined;
		}
		return rootAgents(
			{
				session,
				profiles,
				settings: () => {
					const settings = env.settings.current;
					return {
						maxSteps: settings.agentsMaxSteps ?? 30,
						maxConcurrent: settings.agentsMaxConcurrent ?? 3,
						maxTurnsWarningAt: settings.agentsMaxTurnsWarningAt ?? 0.8,
					};
				},
				observer: children,
				onChildSettled: (path, outcome) => {
					features.afterChildSettled(session, path, outcome);
				},
			},
			ports,
			turnId,
		);
	}
}
