// `session.date`: today's date, a changing prompt observation (observations.ts): at the first
// turn of a session, at a turn start whenever the date has changed since it was last delivered (a
// session left open overnight), and again after a compaction dropped its delivery.
import type { Clock } from '../../base/clock';
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { SESSION_DATE } from './catalog/session';
import { observation } from './observations';

/** The local calendar date, YYYY-MM-DD, and its weekday. */
function today(clock: Clock): string {
	const now = new Date(clock.now());
	const pad = (n: number): string => String(n).padStart(2, '0');
	const weekday = now.toLocaleDateString('en-US', { weekday: 'long' });
	return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} (${weekday})`;
}

export function sessionDate(clock: Clock): ReminderDefinition {
	return observation(
		rosterDefinition(SESSION_DATE, {
			scope: 'all',
			trigger: () => true,
			content: () => `Today's date is ${today(clock)}.`,
		}),
	);
}
