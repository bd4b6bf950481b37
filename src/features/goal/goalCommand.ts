// `/goal` in the composer (docs/goals.md): `/goal` alone shows the goal control; `/goal <objective>`
// sets the goal or changes its objective; `/goal budget 200k` (or `none`) sets its budget;
// `/goal done` completes it and `/goal clear` clears it. Parsed on the host, like `/compact`.

export type GoalCommand =
	| { readonly kind: 'show' }
	| { readonly kind: 'objective'; readonly objective: string }
	| { readonly kind: 'budget'; readonly budget: number | null }
	| { readonly kind: 'end'; readonly how: 'completed' | 'cleared' }
	/** `/goal budget` with an amount that is not one: why, in words. */
	| { readonly kind: 'invalid'; readonly error: string };

const COMMAND = /^\/goal(?:\s+([\s\S]*))?$/;

/** A token count as people write it: `200000`, `200,000`, `200k`, `1.5m`; undefined when it is none of these. */
export function parseTokens(text: string): number | undefined {
	const match = /^(\d+(?:[.,]\d+)*)\s*([km]?)$/i.exec(text.trim().replace(/_/g, ''));
	if (!match) {
		return undefined;
	}
	const [, digits = '', unit = ''] = match;
	const scale = unit.toLowerCase() === 'k' ? 1_000 : unit.toLowerCase() === 'm' ? 1_000_000 : 1;
	// Commas group thousands; a dot is a decimal point (only with a unit does it make sense).
	const value = Number(digits.replace(/,/g, '')) * scale;
	return Number.isFinite(value) && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The `/goal` command in a message, or undefined when the message is not one. */
export function goalCommand(text: string): GoalCommand | undefined {
	const match = COMMAND.exec(text.trim());
	if (!match) {
		return undefined;
	}
	const rest = (match[1] ?? '').trim();
	if (rest === '') {
		return { kind: 'show' };
	}
	const word = rest.toLowerCase();
	if (word === 'done' || word === 'complete') {
		return { kind: 'end', how: 'completed' };
	}
	if (word === 'clear') {
		return { kind: 'end', how: 'cleared' };
	}
	const budget = /^budget(?:\s+([\s\S]*))?$/i.exec(rest);
	if (budget) {
		const amount = (budget[1] ?? '').trim();
		if (amount.toLowerCase() === 'none' || amount.toLowerCase() === 'off') {
			return { kind: 'budget', budget: null };
		}
		const tokens = parseTokens(amount);
		return tokens === undefined ? { kind: 'invalid', error: `"/goal budget" takes a number of tokens (200000, 200k, 1.5m) or "none"; got ${JSON.stringify(amount.slice(0, 40))}.` } : { kind: 'budget', budget: tokens };
	}
	return { kind: 'objective', objective: rest };
}
