// Values one change away from a record, for the specs that hold a hand-written shape check
// (src/base/shape.ts) to the zod schema it mirrors: the two must give the same verdicts.

const ODD_VALUES: unknown[] = [undefined, null, '', 'x', 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, false, [], {}, [{}], { kind: 'user' }, 'tool-use', 'granted', 'done', 2 ** 60, 'deadbeef', 'bad key', 'x</system-reminder>', 'x'.repeat(4097)];

/** The record with one change at `path` (a field, or a field of its first array item or object). */
export function variants(record: Record<string, unknown>): unknown[] {
	const out: unknown[] = [];
	const each = (target: Record<string, unknown>, rebuild: (changed: Record<string, unknown>) => unknown): void => {
		for (const key of Object.keys(target)) {
			const { [key]: _dropped, ...without } = target;
			out.push(rebuild(without));
			for (const odd of ODD_VALUES) {
				out.push(rebuild({ ...target, [key]: odd }));
			}
			const field = target[key];
			const item = Array.isArray(field) ? (field[0] as unknown) : field;
			if (typeof item === 'object' && item !== null && !Array.isArray(item) && key !== 'detail') {
				each(item as Record<string, unknown>, (changed) => rebuild({ ...target, [key]: Array.isArray(field) ? [changed] : changed }));
			}
		}
		out.push(rebuild({ ...target, extra: 1 }));
	};
	each(record, (changed) => changed);
	// `kind` not first: another writer's key order.
	const { kind, ...rest } = record;
	out.push({ ...rest, kind });
	return out;
}
