// Aside's public API: what `activate()` returns to other extensions
// (`vscode.extensions.getExtension<AsideApi>('aside-dev.aside')?.exports`). Documented in the
// README. Contributed reminders go through the same engine, policies and records as Aside's own,
// under keys namespaced by the contributing extension.
import * as z from 'zod';
import type { Agent } from './agent/agent';
import type { ChatSessions } from './agent/sessions';
import { currentEvent } from './base/current';
import type { Event } from './base/event';
import { type IDisposable, toDisposable } from './base/lifecycle';
import type { Logger } from './base/log';
import { declareReminder, type ReminderDeclaration } from './reminders/declaration';
import type { FiringContext, ReminderDefinition } from './reminders/definition';
import { isValidReminderKey } from './reminders/envelope';
import { BUILTIN_KEYS, type KeyRegistry } from './reminders/keys';
import { everyTurn, type FiringPolicy, interval, onChange, oneShot } from './reminders/policy';
import type { InjectionRecord } from './reminders/record';
import type { TurnOutcomeKind } from './vocabulary/outcomes';

export const API_VERSION = 1;

export interface SendResult {
	readonly sessionId: string;
	readonly turnId: string;
	readonly outcome: TurnOutcomeKind;
	/** Why a failed turn failed, in words. */
	readonly error?: string;
}

/** What a reminder's functions may read: the turn count of its roster and the WAIT's phase. */
export interface ContributedReminderContext {
	readonly turn: number;
	readonly phase: 'turn-start' | 'mid-turn';
	readonly owner: 'root' | 'agent';
}

export interface ContributedReminder {
	/** Stable id, unique within your extension. */
	readonly type: string;
	/** Your key, `[A-Za-z0-9._-]+`; it goes on the wire as `<your extension id>.<key>`. */
	readonly key: string;
	/** Short text for the chat row, e.g. "open todos". */
	readonly label: string;
	/** One sentence: what it tells the model and why. */
	readonly purpose: string;
	readonly policy: 'every-turn' | 'one-shot' | 'on-change' | { readonly interval: number };
	readonly scope?: 'session' | 'agent' | 'all';
	/** Evaluated on current state at each WAIT; omitted means always. Keep it cheap and pure. */
	readonly trigger?: (context: ContributedReminderContext) => boolean;
	/** The body, as plain text (Aside escapes it). Runs synchronously at WAIT. */
	readonly content: (context: ContributedReminderContext) => string;
}

export interface AsideApi {
	readonly apiVersion: typeof API_VERSION;
	/**
	 * Sends a message in the current chat, as if typed; resolves when the turn has ended. The text
	 * is a message, always: the composer's `/compact` is not run from here (run the
	 * `aside.compactChat` command, with what to keep as its argument).
	 */
	sendMessage(text: string): Promise<SendResult>;
	/** Adds a reminder to every session (open and future). Throws a clear Error for a bad definition. */
	registerReminder(extensionId: string, reminder: ContributedReminder): IDisposable;
	/** Every injection record, as soon as it was written. */
	readonly onDidRecordInjection: Event<InjectionRecord>;
}

const Shape = z.object({
	type: z.string().regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, ".", "_" or "-"').max(100),
	key: z.string().refine(isValidReminderKey, 'must match [A-Za-z0-9._-]+').max(100),
	label: z.string().min(1).max(60),
	purpose: z.string().min(1).max(500),
	policy: z.union([z.enum(['every-turn', 'one-shot', 'on-change']), z.object({ interval: z.number().int().min(1).max(1000) })]),
	scope: z.enum(['session', 'agent', 'all']).optional(),
});

function policyOf(policy: ContributedReminder['policy']): FiringPolicy {
	switch (policy) {
		case 'every-turn':
			return everyTurn;
		case 'one-shot':
			return oneShot;
		case 'on-change':
			return onChange;
		default:
			return interval(policy.interval);
	}
}

function contextOf(context: FiringContext): ContributedReminderContext {
	return { turn: context.turn, phase: context.phase, owner: context.owner.kind };
}

/**
 * Checks a contributed reminder and turns it into a definition under the extension's namespace,
 * with its declaration (what the key registry takes, as for a built-in type). Throws an Error
 * naming the extension and what is wrong.
 */
export function contributedDefinition(
	extensionId: string,
	reminder: ContributedReminder,
	keys: KeyRegistry,
	isOn: (key: string) => boolean = () => true,
): { definition: ReminderDefinition; key: string; declaration: ReminderDeclaration } {
	if (!/^[A-Za-z0-9-]+\.[A-Za-z0-9._-]+$/.test(extensionId)) {
		throw new Error(`registerReminder: "${extensionId}" is not an extension id (publisher.name); pass context.extension.id.`);
	}
	const parsed = Shape.safeParse(reminder);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new Error(`registerReminder from ${extensionId}: ${issue ? `${issue.path.join('.') || 'reminder'}: ${issue.message}` : 'invalid reminder'}.`);
	}
	if (typeof reminder.content !== 'function' || (reminder.trigger !== undefined && typeof reminder.trigger !== 'function')) {
		throw new Error(`registerReminder from ${extensionId}: content (and trigger, if given) must be functions.`);
	}
	const key = `${extensionId}.${parsed.data.key}`;
	if (keys.has(key)) {
		throw new Error(`registerReminder from ${extensionId}: the key "${key}" is already registered.`);
	}
	const { trigger, content } = reminder;
	const definition: ReminderDefinition = {
		type: `${extensionId}/${parsed.data.type}`,
		key,
		label: parsed.data.label,
		scope: parsed.data.scope ?? 'session',
		policy: policyOf(parsed.data.policy),
		// The person's switch first (`aside.reminders.contributed`), read at every WAIT: a key off is never evaluated.
		trigger: (context) => isOn(key) && (trigger ? trigger(contextOf(context)) : true),
		content: (context) => {
			const body = content(contextOf(context));
			if (typeof body !== 'string') {
				throw new Error(`the content of ${key} returned ${typeof body}, not a string`);
			}
			return body;
		},
	};
	// No `aside.reminders.<type>.*` setting (package.json cannot know the key): aside.reminders.contributed turns each off.
	const declaration = declareReminder({
		type: definition.type,
		key,
		label: definition.label,
		purpose: parsed.data.purpose,
		introducedIn: `${extensionId} (contributed)`,
		configurable: false,
		policy: definition.policy,
		description: parsed.data.purpose,
	});
	return { definition, key, declaration };
}

/** The reminders other extensions registered, and the keys sessions may send (built-in and theirs). */
export class ContributedReminders {
	readonly keys: KeyRegistry = BUILTIN_KEYS.with([]);
	private readonly definitions: ReminderDefinition[] = [];

	/** `isOn` answers, by wire key, whether the person lets a contributed reminder fire now. */
	constructor(private readonly isOn: (key: string) => boolean = () => true) {}

	/** As of now: what each new session installs beside the built-in reminders. */
	get current(): readonly ReminderDefinition[] {
		return this.definitions;
	}

	/** Checks `reminder` and adds it and its key; throws a clear Error for a bad one. */
	add(extensionId: string, reminder: ContributedReminder): { readonly definition: ReminderDefinition; readonly key: string } {
		const { definition, key, declaration } = contributedDefinition(extensionId, reminder, this.keys, this.isOn);
		this.keys.add(declaration);
		this.definitions.push(definition);
		return { definition, key };
	}

	/** Takes `definition` out of what new sessions install. */
	withdraw(definition: ReminderDefinition): void {
		const index = this.definitions.indexOf(definition);
		if (index !== -1) {
			this.definitions.splice(index, 1);
		}
	}
}

export interface ApiHost {
	readonly agent: Pick<Agent, 'startTurn'>;
	readonly sessions: ChatSessions;
	readonly reminders: ContributedReminders;
	readonly log: Logger;
}

/** The public API over the window's agent and sessions; also what the `aside.sendMessage` command runs. */
export function createApi({ agent, sessions, reminders, log }: ApiHost): AsideApi {
	return {
		apiVersion: API_VERSION,
		sendMessage: async (text) => {
			if (typeof text !== 'string' || text.trim() === '') {
				throw new Error('Aside: sendMessage takes the text of the message as its argument.');
			}
			const outcome = await agent.startTurn(text);
			return { sessionId: sessions.current.id, ...outcome };
		},
		registerReminder: (extensionId, reminder) => {
			const { definition, key } = reminders.add(extensionId, reminder);
			sessions.current.reminders.roster.installDefaults([definition]);
			log.info(`Reminder ${key} registered by ${extensionId}.`);
			return toDisposable(() => {
				reminders.withdraw(definition);
				sessions.current.reminders.roster.unregister(definition.type);
				reminders.keys.remove(key);
			});
		},
		// Of whichever session is current, as each is written.
		onDidRecordInjection: currentEvent(sessions, (session) => session.reminders.onDidRecord),
	};
}
