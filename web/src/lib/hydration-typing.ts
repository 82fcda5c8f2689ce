import { useEffect } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';

/** Whether this page was prerendered and its first form has not mounted yet. */
let hydrating = false;

/** Called just before React hydrates a prerendered page (src/app/render.tsx). */
export function hydrationStarts() {
  hydrating = true;
}

/**
 * What a visitor typed into a prerendered page's form before its code had loaded, or while React
 * hydrated it, is in the inputs. The first render must match the HTML (empty fields, the submit
 * button disabled): React does not correct attributes that differ while it hydrates, so a form
 * that started from the typed values would keep the server's disabled button. And React's
 * change tracking starts from the value found in the input, so what was typed while it hydrated
 * never reaches `onChange`. Once the first form has mounted, it takes what each named input
 * holds, validated, as if typed now, and the page is no longer hydrating. Nothing typed is lost.
 */
export function useTypedDuringHydration<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setValue' | 'getValues'>,
  names: readonly Path<T>[],
) {
  const { setValue, getValues } = form;
  useEffect(() => {
    if (!hydrating) return;
    // After every effect of the mount: `useWatch` subscribes in an effect of its own, declared
    // after this one in the form, and would miss the values set sooner.
    const timer = setTimeout(() => {
      hydrating = false;
      for (const name of names) {
        const input = document.querySelector<HTMLInputElement>(`form input[name="${CSS.escape(name)}"]`);
        if (!input) continue;
        const typed = (input.type === 'checkbox' ? input.checked : input.value) as PathValue<T, Path<T>>;
        if (typed === false || typed === '') continue;
        // react-hook-form may already have read an edited input as its ref registered, without
        // telling its watchers (`useWatch` keeps the default): a value it already holds would
        // change nothing, so it is set back to the default first, then to what was typed.
        if (getValues(name) === typed) setValue(name, (input.type === 'checkbox' ? false : '') as typeof typed);
        setValue(name, typed, { shouldValidate: true, shouldDirty: true });
      }
    }, 0);
    return () => clearTimeout(timer);
    // Once, on mount: later typing reaches the form through its own events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
