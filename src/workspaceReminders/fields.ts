// The fields of a reminder file's frontmatter, each with the words the editor shows for it
// (hover, completion) and docs/workspace-reminders.md repeats. One list, so a field the parser
// knows is a field the editor documents.

export interface FieldDoc {
	readonly name: string;
	/** What the editor inserts after `name: ` (a snippet-free sample value), if anything. */
	readonly sample?: string;
	readonly doc: string;
}

export const TOP_FIELDS: readonly FieldDoc[] = [
	{ name: 'key', sample: 'my-reminder', doc: 'The reminder\'s key, `[A-Za-z0-9._-]+` (required). It goes on the wire as `workspace.<key>`; two files of a folder cannot share one, and it cannot take a key Aside uses.' },
	{ name: 'label', sample: 'my reminder', doc: 'The short text the chat\'s reminder row shows (defaults to the key).' },
	{ name: 'policy', sample: 'on-change', doc: 'When it may fire again: `every` (each WAIT its trigger holds), `on-change` (when its text differs from the last one sent; the default), `once` (once per chat), or `interval: N` (at most once every N turns; write `"interval: 5"` or `{ interval: 5 }`).' },
	{ name: 'when', doc: 'A trigger on what happened in the turn: `read`, `edited`, `mode`, `tool`; every condition given must hold. Without `when`, the reminder is considered at every WAIT under its policy.' },
];

export const WHEN_FIELDS: readonly FieldDoc[] = [
	{ name: 'read', sample: '"src/**"', doc: 'After a successful Read of a file matching this glob (workspace-relative, picomatch; a string or a list).' },
	{ name: 'edited', sample: '"src/**"', doc: 'After the agent\'s own successful edit (Edit, Write, ApplyPatch) of a file matching this glob (a string or a list).' },
	{ name: 'mode', sample: 'plan', doc: 'Only while the chat is in this permission mode: `ask`, `auto-edit`, `plan` or `full-access`.' },
	{ name: 'tool', sample: 'Run', doc: 'After a call of this tool (Aside\'s tool name: Read, Edit, Run, …).' },
];

/** The values `policy` takes, as the editor offers them. */
export const POLICY_VALUES: readonly FieldDoc[] = [
	{ name: 'every', doc: 'Each WAIT its trigger holds (at most once per turn).' },
	{ name: 'on-change', doc: 'When its text differs from the text last sent (the default).' },
	{ name: 'once', doc: 'Once per chat.' },
	{ name: '"interval: 5"', doc: 'At most once every N turns (N a whole number, at least 1).' },
];

export const PLACEHOLDER_DOCS: Readonly<Record<string, string>> = {
	files: 'The workspace-relative paths that matched `when.read` / `when.edited`, comma-separated (empty without a glob trigger).',
	date: 'Today\'s date, `YYYY-MM-DD`.',
	mode: 'The chat\'s permission mode (`ask`, `auto-edit`, `plan`, `full-access`).',
};
