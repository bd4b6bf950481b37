// `session.date`: today's date, at the first turn of a session and whenever the date has changed
// since it was last delivered (a session left open overnight). On change, at turn starts only.
import type { Clock } from '../../base/clock';
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { SESSION_DATE } from './catalog';

/** The local calendar date, YYYY-MM-DD, and its weekday. */
function today(clock: Clock): string {
	const now = new Date(clock.now());
	const pad = (n: number): string => String(n).padStart(2, '0');
	const weekday = now.toLocaleDateString('en-US', { weekday: 'long' });
	return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} (${weekday})`;
}

export function sessionDate(clock: Clock): ReminderDefinition {
	return rosterDefinition(SESSION_DATE, {
		scope: 'all',
		trigger: ({ phase }) => phase === 'turn-start',
		content: (context) => ({
			body: `Today's date is ${today(clock)}.`,
			...(context.turn > 1 ? { reason: 'the date changed since it was last delivered' } : {}),
		}),
	});
}
