// An MCP server's elicitation form in its card (mcpRequests.ts): one control for each field of the
// requested schema, the schema's defaults filled in, and the entries checked before Submit with the
// same rules the host checks again (src/vocabulary/elicitationForm.ts). Titles, descriptions and
// option labels come from the server: they go in as text only.
import { checkEntries, type ElicitationField, type FormEntries, initialEntries } from '../src/protocol/elicitationForm';
import { el, uniqueId } from './dom';

const PLACEHOLDERS: Readonly<Record<string, string>> = { email: 'name@example.com', uri: 'https://…', date: 'YYYY-MM-DD', 'date-time': 'YYYY-MM-DDThh:mm' };

interface FieldControl {
	readonly field: ElicitationField;
	readonly element: HTMLElement;
	/** What gets the focus when the field's entry is wrong. */
	readonly focusable: HTMLElement;
	readonly problem: HTMLElement;
	value(): FormEntries[string];
}

function control(field: ElicitationField, initial: FormEntries[string] | undefined): FieldControl {
	const id = uniqueId('mcp-field');
	const problem = el('div', { class: 'mcp-field-problem', id: `${id}-problem`, hidden: true });
	const description = field.description === undefined ? null : el('div', { class: 'mcp-field-description', id: `${id}-description` }, field.description);
	const describedBy = [description ? `${id}-description` : '', `${id}-problem`].filter(Boolean).join(' ');
	const label = el('label', { class: 'mcp-field-label', for: id }, field.title, field.required ? el('span', { class: 'mcp-field-required', 'aria-hidden': 'true' }, ' *') : null);
	const common = { id, 'aria-describedby': describedBy, 'aria-required': field.required ? 'true' : undefined, 'data-field': field.name };
	switch (field.kind) {
		case 'boolean': {
			const box = el('input', { ...common, type: 'checkbox', class: 'mcp-field-checkbox' });
			box.checked = initial === true;
			return {
				field, focusable: box, problem, value: () => box.checked,
				element: el('div', { class: 'mcp-field mcp-field-boolean' }, el('div', { class: 'mcp-field-check' }, box, label), description, problem),
			};
		}
		case 'choice': {
			const none = field.required && field.default !== undefined ? [] : [el('option', { value: '' }, field.required ? 'Choose…' : '(none)')];
			const select = el('select', { ...common, class: 'mcp-field-input' }, ...none, ...field.options.map((option) => el('option', { value: option.value }, option.label)));
			select.value = typeof initial === 'string' ? initial : '';
			return { field, focusable: select, problem, value: () => select.value, element: el('div', { class: 'mcp-field' }, label, description, select, problem) };
		}
		case 'multi': {
			const chosen = new Set(Array.isArray(initial) ? initial : []);
			const boxes = field.options.map((option) => {
				const box = el('input', { type: 'checkbox', class: 'mcp-field-checkbox', value: option.value });
				box.checked = chosen.has(option.value);
				return { box, row: el('label', { class: 'mcp-field-check' }, box, option.label) };
			});
			const required = field.required ? el('span', { class: 'mcp-field-required', 'aria-hidden': 'true' }, ' *') : null;
			const group = el('fieldset', { class: 'mcp-field mcp-field-multi', id, 'aria-describedby': describedBy, 'data-field': field.name },
				el('legend', { class: 'mcp-field-label' }, field.title, required),
				description, ...boxes.map(({ row }) => row), problem);
			const value = (): string[] => boxes.filter(({ box }) => box.checked).map(({ box }) => box.value);
			return { field, focusable: boxes[0]?.box ?? group, problem, element: group, value };
		}
		default: {
			const format = field.kind === 'text' ? field.format : undefined;
			const input = el('input', {
				...common,
				type: 'text',
				class: 'mcp-field-input',
				inputmode: field.kind === 'number' ? (field.integer ? 'numeric' : 'decimal') : format === 'email' ? 'email' : format === 'uri' ? 'url' : undefined,
				placeholder: format === undefined ? undefined : PLACEHOLDERS[format],
				spellcheck: 'false',
			});
			input.value = typeof initial === 'string' ? initial : '';
			return { field, focusable: input, problem, value: () => input.value, element: el('div', { class: 'mcp-field' }, label, description, input, problem) };
		}
	}
}

/** The form's fields, and its check before Submit: the entries to send, or undefined after showing what is wrong. */
export class ElicitationFormView {
	private readonly controls: FieldControl[];
	readonly element: HTMLElement;

	constructor(fields: readonly ElicitationField[]) {
		const initial = initialEntries(fields);
		this.controls = fields.map((field) => control(field, initial[field.name]));
		this.element = el('div', { class: 'mcp-form-fields' }, ...this.controls.map((entry) => entry.element));
	}

	entries(): FormEntries {
		return Object.fromEntries(this.controls.map((entry) => [entry.field.name, entry.value()]));
	}

	/** The entries when they are complete; else each wrong field says why and the first one gets the focus. */
	check(): FormEntries | undefined {
		const entries = this.entries();
		const checked = checkEntries(this.controls.map((entry) => entry.field), entries);
		const problems: Readonly<Record<string, string>> = 'problems' in checked ? checked.problems : {};
		for (const entry of this.controls) {
			const problem = problems[entry.field.name];
			entry.problem.textContent = problem ?? '';
			entry.problem.hidden = problem === undefined;
			if (problem === undefined) {
				entry.focusable.removeAttribute('aria-invalid');
			} else {
				entry.focusable.setAttribute('aria-invalid', 'true');
			}
		}
		const first = this.controls.find((entry) => problems[entry.field.name] !== undefined);
		first?.focusable.focus();
		return first ? undefined : entries;
	}

	setReadOnly(): void {
		for (const node of this.element.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')) {
			node.setAttribute('aria-disabled', 'true');
			if (node instanceof HTMLInputElement && node.type === 'text') {
				node.readOnly = true;
			}
		}
	}
}
