// The person's own `aside.permissions.rules` (the port: src/agent/permissions/alwaysAllow.ts): the
// value in their user settings, never the workspace's — the setting is application-scoped, and a
// rule "Always allow" saves must not land in a repository's .vscode/settings.json.
import * as vscode from 'vscode';
import type { UserRulesSetting } from '../agent/permissions/alwaysAllow';
import { SETTINGS } from './settings';

export const vscodeUserRules: UserRulesSetting = {
	read: () => vscode.workspace.getConfiguration().inspect(SETTINGS.permissionRules.key)?.globalValue,
	write: (value) => vscode.workspace.getConfiguration().update(SETTINGS.permissionRules.key, value, vscode.ConfigurationTarget.Global),
};
