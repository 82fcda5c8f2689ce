import type { KeyboardEvent } from 'react';

/** Input types a player types into; checkboxes, radios and buttons keep their own Enter. */
const TYPED_INPUT_TYPES = new Set([
  'text',
  'email',
  'password',
  'tel',
  'number',
  'search',
  'url',
  'date',
  'datetime-local',
  'month',
  'week',
  'time',
]);

type Field = HTMLInputElement | HTMLSelectElement;

function isField(element: unknown): element is Field {
  if (element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && TYPED_INPUT_TYPES.has(element.type);
}

/** A field focus can move to: not disabled, read-only, hidden or taken out of the tab order. */
function takesFocus(field: Field): boolean {
  if (field.disabled || field.tabIndex < 0 || field.closest('[hidden], [inert]')) return false;
  return !(field instanceof HTMLInputElement && field.readOnly);
}

/**
 * Every form's Enter (spec section 5, "Enter can move focus to the next field"), given to the
 * <form> as its onKeyDown: Enter in a field moves focus to the form's next field, its text
 * selected as Tab would; in the last field it is left alone, so the browser submits the form as
 * usual. A field that handled Enter itself (preventDefault), an IME composing a word (Vietnamese
 * Telex) and Enter with a modifier are left alone too.
 */
export function enterToNextField(event: KeyboardEvent<HTMLFormElement>) {
  if (event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing) return;
  if (event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
  const current = event.target;
  if (!isField(current)) return;
  const fields = Array.from(event.currentTarget.elements).filter(
    (element): element is Field => isField(element) && (element === current || takesFocus(element)),
  );
  const next = fields[fields.indexOf(current) + 1];
  if (!next) return;
  event.preventDefault();
  next.focus();
  if (next instanceof HTMLInputElement) next.select();
}
