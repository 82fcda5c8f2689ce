/**
 * What a visitor typed into a prerendered page's form before its code had loaded. React
 * hydrates the inputs as they are, but a form library then gives each field its default value:
 * `keepTypedEarly` (src/app/render.tsx) reads the fields just before hydration, and a form
 * starts from `typedEarly(name)` instead of an empty string, so nothing typed is lost. The form
 * calls `forgetTypedEarly` once mounted: a later form on the same page starts as it would.
 */
const typed = new Map<string, string | boolean>();

/** Reads the named inputs of `root`'s forms: text as typed, checkboxes as ticked. */
export function keepTypedEarly(root: HTMLElement) {
  for (const input of root.querySelectorAll<HTMLInputElement>('form input[name]')) {
    if (input.type === 'checkbox') {
      if (input.checked) typed.set(input.name, true);
    } else if (input.type !== 'hidden' && input.value !== '') {
      typed.set(input.name, input.value);
    }
  }
}

/** The text typed early into the field `name`. */
export function typedEarly(name: string): string | undefined {
  const value = typed.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** Whether the checkbox `name` was ticked early. */
export function tickedEarly(name: string): true | undefined {
  return typed.get(name) === true ? true : undefined;
}

export function forgetTypedEarly() {
  typed.clear();
}
