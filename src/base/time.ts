// Times and durations as generated texts say them: the clock time of an event (`14:02:11 UTC`, what
// the model and the person compare with each other) and how long something ran (`6.2 s`, `3 min 4 s`).

/** A time as the model reads it: `14:02:11 UTC`. */
export function clockTime(at: number): string {
	return `${new Date(at).toISOString().slice(11, 19)} UTC`;
}

/** How long something ran: tenths of a second under a minute, then minutes and seconds. */
export function duration(ms: number): string {
	const seconds = Math.round(ms / 100) / 10;
	return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
