// What the permission policy reads besides the mode, as of now: the rules of the setting (parsed
// once per distinct value — a bad rule was already named by the settings' check and is dropped
// here too), workspace trust, and Aside's own storage folders.
import type { PermissionContext } from './policy';
import { parsePermissionRules, type PermissionRules } from './rules';

export interface PermissionSources {
	/** The value of aside.permissions.rules now. */
	readonly rules: () => unknown;
	readonly trusted: () => boolean;
	readonly storage: readonly string[];
	/** The value of aside.tools.edit now: which edit tools the model gets. */
	readonly editTools?: () => readonly string[];
}

export function permissionContextOf(sources: PermissionSources): () => PermissionContext {
	let key: string | undefined;
	let rules: PermissionRules | undefined;
	return () => {
		const value = sources.rules();
		// JSON.stringify gives undefined for an unset value, whatever its declared type says.
		const json: unknown = JSON.stringify(value);
		const next = typeof json === 'string' ? json : '';
		if (rules === undefined || next !== key) {
			key = next;
			rules = parsePermissionRules(value).rules;
		}
		return { rules, trusted: sources.trusted(), storage: sources.storage, ...(sources.editTools ? { editTools: sources.editTools() } : {}) };
	};
}
