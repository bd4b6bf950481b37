// A chat's task list over a memory session, for the specs of the task tools and the nudge.
import { ChatSession } from '../agent/session';
import { ChatTasks } from '../features/tasks/chatTasks';
import type { ReminderConfig } from '../reminders/config';
import { DEFAULT_REMINDER_CONFIG } from '../reminders/config';
import { grant } from '../tools/featureAccess';
import { TASK_ACCESS, type TaskAccess } from '../tools/taskAccess';
import type { ToolContext } from '../tools/tool';
import { FakeClock, SequentialIds } from './fakeClock';
import { MemorySessionStore } from './memorySessionStore';
import { testEnvironment } from './sessions';

export function taskBoard(
	options: { readonly store?: MemorySessionStore; readonly config?: ReminderConfig; readonly isRunning?: (path: string) => boolean } = {},
) {
	const clock = new FakeClock(1_000);
	const ids = new SequentialIds('id');
	const store = options.store ?? new MemorySessionStore();
	const session = new ChatSession('s1', store, { ...testEnvironment(clock, ids), reminderConfig: options.config ?? DEFAULT_REMINDER_CONFIG }, store.records);
	const tasks = new ChatTasks(session, { clock, newId: () => ids.next(), ...(options.isRunning ? { isRunning: options.isRunning } : {}) });
	return { clock, ids, store, session, tasks };
}

/** A tool context whose only part is the task list as `access` reaches it (the task tools touch nothing else). */
export function taskContext(access: TaskAccess | undefined, signal: AbortSignal = new AbortController().signal): ToolContext {
	return { roots: ['/ws'], signal, ...(access ? { features: grant(TASK_ACCESS, access) } : {}) } as unknown as ToolContext;
}
