// A workspace reminder file's spec as a reminder definition (docs/workspace-reminders.md,
// "Firing"): under `workspace.<key>`, in the session roster, with a declaration the key registry
// takes (as a contributed reminder's). Without `when` it is a roster reminder like a built-in,
// due under its policy at every WAIT. With `when`, its trigger holds when, since its last delivery
// in this root turn, the turn did what every given condition asks (a matching Read, a matching own
// edit, a call of the tool) and the chat is in the mode given; the policy then applies as ever
// (`every` at most once a turn, `once` once a chat, `interval: N`, `on-change` when the rendered
// body differs from the last one delivered). The spec is read through `Held`, so an edited file
// applies at the next WAIT and keeps the firing state (unless its policy changed: see
// WorkspaceReminders).
import * as nodePath from 'node:path';
import picomatch from 'picomatch';
import type { Clock } from '../base/clock';
import { declareReminder, type ReminderDeclaration } from '../reminders/declaration';
import type { FiringContext, ReminderDefinition } from '../reminders/definition';
import { everyTurn, type FiringPolicy, interval, onChange, oneShot } from '../reminders/policy';
import { isInside } from '../tools/paths';
import type { ActivityEvent, TurnActivity } from './activity';
import { reminderDate, renderBody } from './placeholders';
import { WORKSPACE_KEY_PREFIX, type WorkspaceReminderPolicy, type WorkspaceReminderSpec } from './spec';

/** A valid reminder file, where it is: its folder (absolute) and its path in it (`.aside/reminders/x.md`). */
export interface WorkspaceReminderSource {
	readonly spec: WorkspaceReminderSpec;
	readonly folder: string;
	readonly file: string;
}

/** What a definition reads at each WAIT: its current source, and whether it may fire at all. */
export interface Held {
	source: WorkspaceReminderSource;
	/** Trust, `aside.reminders.workspace.enabled`, its own `enabled` in the setting map. */
	readonly enabled: () => boolean;
}

export function firingPolicyOf(policy: WorkspaceReminderPolicy): FiringPolicy {
	switch (policy.kind) {
		case 'every':
			return everyTurn;
		case 'once':
			return oneShot;
		case 'on-change':
			return onChange;
		case 'interval':
			return interval(policy.turns);
	}
}

export function wireKeyOf(spec: WorkspaceReminderSpec): string {
	return `${WORKSPACE_KEY_PREFIX}${spec.key}`;
}

export function declarationOf(source: WorkspaceReminderSource): ReminderDeclaration {
	const key = wireKeyOf(source.spec);
	const purpose = `Workspace reminder from ${source.file}`;
	// No `aside.reminders.<type>.*` setting: aside.reminders.workspace.reminders turns each off.
	return declareReminder({ type: key, key, label: source.spec.label, purpose, introducedIn: 'workspace', configurable: false, policy: firingPolicyOf(source.spec.policy), description: purpose });
}

/** The path of `path` in `folder`, with forward slashes; undefined outside it. */
function relativeTo(folder: string, path: string): string | undefined {
	const absolute = nodePath.resolve(path);
	if (!isInside(absolute, folder) || absolute === folder) {
		return undefined;
	}
	return nodePath.relative(folder, absolute).split(nodePath.sep).join('/');
}

interface Matched {
	/** Workspace-relative paths that matched `read` or `edited`, first seen first. */
	readonly files: readonly string[];
	readonly reason: string;
}

type Matcher = (path: string) => boolean;

/**
 * What a reminder's `when` found in the turn's events since its last delivery, kept as it goes:
 * each WAIT matches only the events that came after the last one it looked at, so the cost of a
 * WAIT does not grow with the turn's tool calls.
 */
class EventScan {
	/** The last event looked at. */
	scanned: number;
	private readonly read: string[] = [];
	private readonly edited: string[] = [];
	private toolCalled = false;

	constructor(
		readonly owner: string,
		/** The last event the reminder's delivery covered: the scan starts after it. */
		readonly after: number,
		readonly source: WorkspaceReminderSource,
		private readonly matchers: { readonly read?: Matcher; readonly edited?: Matcher },
	) {
		this.scanned = after;
	}

	/** Takes in `events` (those after the last one scanned) and says whether every event condition holds. */
	take(events: readonly ActivityEvent[]): Matched | undefined {
		const { folder, spec } = this.source;
		for (const event of events) {
			if (event.seq <= this.scanned) {
				continue;
			}
			this.scanned = event.seq;
			if (event.kind === 'tool') {
				this.toolCalled ||= event.tool === spec.when?.tool;
				continue;
			}
			const matcher = event.kind === 'read' ? this.matchers.read : this.matchers.edited;
			const found = event.kind === 'read' ? this.read : this.edited;
			const relative = matcher && event.path !== undefined ? relativeTo(folder, event.path) : undefined;
			if (relative !== undefined && matcher?.(relative) && !found.includes(relative)) {
				found.push(relative);
			}
		}
		const unmet = (this.matchers.read && this.read.length === 0) || (this.matchers.edited && this.edited.length === 0);
		if (unmet || (spec.when?.tool !== undefined && !this.toolCalled)) {
			return undefined;
		}
		const reasons = [...(this.read.length > 0 ? [`read ${this.read.join(', ')}`] : []), ...(this.edited.length > 0 ? [`edited ${this.edited.join(', ')}`] : []), ...(this.toolCalled ? [`${spec.when?.tool ?? ''} was called`] : [])];
		return { files: [...new Set([...this.read, ...this.edited])], reason: reasons.join('; ') };
	}
}

function modeOf(context: FiringContext): string {
	return context.facts.permissions?.mode ?? context.facts.mode ?? '';
}

/**
 * The definition of one workspace reminder. `activity` is the window's log of the running root
 * turn; the reminder remembers, per root turn, the last event its delivery covered (set by its
 * commit, so a failed request leaves the events to trigger it again).
 */
export function workspaceDefinition(held: Held, activity: TurnActivity, clock: Clock): ReminderDefinition {
	const { spec } = held.source;
	const key = wireKeyOf(spec);
	let covered: { readonly owner: string; readonly seq: number } | undefined;
	const matcherCache = new Map<readonly string[], Matcher>();
	const matcherOf = (globs: readonly string[] | undefined): Matcher | undefined => {
		if (globs === undefined || globs.length === 0) {
			return undefined;
		}
		let matcher = matcherCache.get(globs);
		if (!matcher) {
			matcher = picomatch([...globs], { dot: true });
			matcherCache.set(globs, matcher);
		}
		return matcher;
	};
	const hasEventConditions = (): boolean => {
		const { when } = held.source.spec;
		return when !== undefined && ((when.read?.length ?? 0) > 0 || (when.edited?.length ?? 0) > 0 || when.tool !== undefined);
	};
	let scan: EventScan | undefined;
	const evaluate = (context: FiringContext): Matched | undefined => {
		const { source } = held;
		const { when } = source.spec;
		if (when?.mode !== undefined && modeOf(context) !== when.mode) {
			return undefined;
		}
		if (!hasEventConditions()) {
			return { files: [], reason: when?.mode !== undefined ? `in ${when.mode} mode` : '' };
		}
		const after = covered?.owner === context.owner.id ? covered.seq : 0;
		if (scan?.owner !== context.owner.id || scan.after !== after || scan.source !== source) {
			scan = new EventScan(context.owner.id, after, source, { read: matcherOf(when?.read), edited: matcherOf(when?.edited) });
		}
		return scan.take(activity.since(context.owner, scan.scanned));
	};
	return {
		type: key,
		key,
		label: spec.label,
		scope: 'session',
		policy: firingPolicyOf(spec.policy),
		trigger: (context) => held.enabled() && evaluate(context) !== undefined,
		content: (context) => {
			const matched = evaluate(context);
			const { source } = held;
			// renderBody neutralises markers in what it puts in (a matched path), so the body stays one block.
			const body = renderBody(source.spec.body, { files: matched?.files ?? [], date: reminderDate(new Date(clock.now())), mode: modeOf(context) });
			const owner = context.owner.id;
			const seq = activity.lastSeq(context.owner);
			const why = matched?.reason ? `${matched.reason} (${source.file})` : undefined;
			return {
				body,
				...(why ? { reason: why } : {}),
				commit: () => {
					covered = { owner, seq };
				},
			};
		},
	};
}
