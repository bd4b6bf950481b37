// An MCP tool's approval is bound to its definition (docs/mcp.md, "Tools"): the description, input
// schema and annotations the person approved — the first ones seen, or the ones they allowed a call
// of since. A tool whose definition changed after that (a `tools/list_changed` that rewrote it)
// asks before its next call in every mode, whatever the allow rules or trusted annotations say, and
// the card shows the difference; allowing that call makes the new definition the approved one.
import { definitionHash } from './serverState';
import type { McpToolInfo } from './session';

/** A definition as it is kept: its hash, and its text for the difference the card shows. */
export interface ApprovedDefinition {
	readonly hash: string;
	readonly text: string;
}

/** Where approved definitions are kept, by tool name (`mcp__server__tool`): globalState in VS Code. */
export interface DefinitionStore {
	get(tool: string): ApprovedDefinition | undefined;
	set(tool: string, definition: ApprovedDefinition): void;
}

/** The most of a definition's text kept for the difference. */
export const MAX_DEFINITION_TEXT = 16_000;

/** A definition as the card shows it: description, input schema, annotations. */
export function definitionOf(info: McpToolInfo): ApprovedDefinition {
	const text = [
		`Description:\n${info.description}`,
		`Input schema:\n${JSON.stringify(info.inputSchema, null, 2)}`,
		`Annotations:\n${JSON.stringify({ ...info.annotations, ...(info.title === undefined ? {} : { title: info.title }) }, null, 2)}`,
		'',
	].join('\n');
	return { hash: definitionHash(info), text: text.length > MAX_DEFINITION_TEXT ? `${text.slice(0, MAX_DEFINITION_TEXT)}\n[… cut]\n` : text };
}

/** The approved definition and the one now, when they differ. */
export interface Suspension {
	readonly approved: ApprovedDefinition;
	readonly now: ApprovedDefinition;
}

/** A tool's approval, bound to its definition in `store`. */
export class BoundApproval {
	private readonly now: ApprovedDefinition;

	constructor(
		private readonly store: DefinitionStore,
		private readonly tool: string,
		info: McpToolInfo,
	) {
		this.now = definitionOf(info);
		// The first definition seen is the approved one.
		if (store.get(tool) === undefined) {
			store.set(tool, this.now);
		}
	}

	/** Whether the definition changed since it was approved, and how. */
	suspended(): Suspension | undefined {
		const approved = this.store.get(this.tool);
		return approved === undefined || approved.hash === this.now.hash ? undefined : { approved, now: this.now };
	}

	/** The person allowed a call of the tool as it is now. */
	approve(): void {
		this.store.set(this.tool, this.now);
	}
}

/** Definitions kept in memory (tests, and where no storage is given). */
export function memoryDefinitions(): DefinitionStore {
	const kept = new Map<string, ApprovedDefinition>();
	return { get: (tool) => kept.get(tool), set: (tool, definition) => void kept.set(tool, definition) };
}
