// The edit tools the `aside.tools.edit` setting chooses among (pure: settings.ts reads it).
export const EDIT_TOOL_NAMES = ['Edit', 'Write', 'ApplyPatch'] as const;
export type EditToolName = (typeof EDIT_TOOL_NAMES)[number];
