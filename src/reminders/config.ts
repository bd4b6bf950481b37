// How the engine learns what the person configured (`aside.reminders.<type>.enabled` and
// `.interval`): through this interface, read at every WAIT, so a settings change applies to
// the next request without rebuilding anything.

export interface ReminderConfig {
	/** False turns the type off: roster reminders are not evaluated, and other entries of the type
	 * are delivered silently (their commits still run, so queued state is consumed, not repeated). */
	isEnabled(type: string): boolean;
	/** Overrides an interval policy's turns; undefined keeps the definition's own. */
	intervalOf(type: string): number | undefined;
}

export const DEFAULT_REMINDER_CONFIG: ReminderConfig = {
	isEnabled: () => true,
	intervalOf: () => undefined,
};
