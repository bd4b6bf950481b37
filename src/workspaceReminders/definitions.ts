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
 * Whether `events` satisfy every event condition of `when` (read, edited, tool); undefined when one
 * does not hold. A spec without event conditions holds with no files.
 */
function matchEvents(source: WorkspaceReminderSource, events: readonly ActivityEvent[], matchers: { readonly read?: Matcher; readonly edited?: Matcher }): Matched | undefined {
	const when = source.spec.when ?? {};
	const files: string[] = [];
	const reasons: string[] = [];
	const holds = (kind: 'read' | 'edited', matcher: Matcher | undefined): boolean => {
		if (!matcher) {
			return true;
		}
		const found: string[] = [];
		for (const event of events) {
			const relative = event.kind === kind && event.path !== undefined ? relativeTo(source.folder, event.path) : undefined;
			if (relative !== undefined && matcher(relative) && !found.includes(relative)) {
				found.push(relative);
			}
		}
		if (found.length === 0) {
			return false;
		}
		reasons.push(`${kind === 'read' ? 'read' : 'edited'} ${found.join(', ')}`);
		for (const file of found) {
			if (!files.includes(file)) {
				files.push(file);
			}
		}
		return true;
	};
	if (!holds('read', matchers.read) || !holds('edited', matchers.edited)) {
		return undefined;
	}
	if (when.tool !== undefined) {
		if (!events.some((event) => event.kind === 'tool' && event.tool === when.tool)) {
			return undefined;
		}
		reasons.push(`${when.tool} was called`);
	}
	return { files, reason: reasons.join('; ') };
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
		return matchEvents(source, activity.since(context.owner, after), { read: matcherOf(when?.read), edited: matcherOf(when?.edited) });
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
