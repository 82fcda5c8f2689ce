import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { HStack, Stack } from 'styled-system/jsx';

import { DateInput } from '@/components/form/date-input';
import { PasswordStrengthMeter } from '@/components/form/password-strength-meter';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Fieldset } from '@/components/ui/fieldset';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Text } from '@/components/ui/text';
import { useCaptcha } from '@/hooks/use-captcha';
import { toApiError } from '@/lib/api-client';
import { enterToNextField } from '@/lib/enter-to-next-field';
import { useTypedDuringHydration } from '@/lib/hydration-typing';
import { m } from '@/paraglide/messages';

import {
  REGISTER_FIELDS,
  registerInputSchema,
  registerSteps,
  useRegister,
  type RegisterField,
  type RegisterInput,
  type RegisterStepId,
} from '../api/register';
import { RegisterSteps } from './register-steps';

const LAST_STEP = registerSteps.length - 1;

/** The step kept in the history entry's state, so Back returns to the previous step. */
function stepInState(state: unknown): number {
  const step = (state as { registerStep?: unknown } | null)?.registerStep;
  return typeof step === 'number' && Number.isInteger(step) && step >= 0 && step <= LAST_STEP ? step : 0;
}

const isRegisterField = (field: string): field is RegisterField => (REGISTER_FIELDS as string[]).includes(field);

/**
 * Sign-up in four steps (email, date of birth, username, password). A step moves on only when
 * its fields are valid; each step is a history entry. The last step submits with a captcha
 * token. When the server rejects the input (422) the steps give way to one form with every
 * field and the server's messages beside them.
 */
export function RegisterForm() {
  const location = useLocation();
  const navigate = useNavigate();
  const captcha = useCaptcha();
  const signUp = useRegister();
  const [collapsed, setCollapsed] = useState(false);
  const [gettingToken, setGettingToken] = useState(false);

  const {
    setValue,
    getValues,
    control,
    register,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm<RegisterInput>({
    mode: 'onTouched',
    resolver: zodResolver(registerInputSchema),
    defaultValues: {
      email: '',
      receiveNewsletter: false,
      dob: '',
      username: '',
      password: '',
      passwordConfirm: '',
    },
  });
  useTypedDuringHydration({ setValue, getValues }, ['email', 'receiveNewsletter']);
  const values = useWatch({ control }) as RegisterInput;

  // A step later than the first one whose fields are not valid (after a reload, say) is not shown.
  const stepValid = registerSteps.map((step) => step.schema.safeParse(values).success);
  const requested = stepInState(location.state);
  const firstInvalid = stepValid.indexOf(false);
  const step = firstInvalid === -1 ? requested : Math.min(requested, firstInvalid);
  const allValid = registerInputSchema.safeParse(values).success;

  const goToStep = (next: number, replace = false) =>
    void navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace, state: { ...(location.state as object | null), registerStep: next } },
    );

  useEffect(() => {
    if (!collapsed && requested !== step) goToStep(step, true);
  });

  const goBack = () => {
    if (requested === step) void navigate(-1);
    else goToStep(step - 1, true);
  };

  const submit = handleSubmit(async (input) => {
    // Spec: without a loaded captcha, submitting does nothing.
    if (!captcha.loaded) return;
    setGettingToken(true);
    let gReCaptchaToken: string;
    try {
      gReCaptchaToken = await captcha.execute('registerFormSubmit');
    } catch {
      return;
    } finally {
      setGettingToken(false);
    }
    signUp.mutate(
      { ...input, gReCaptchaToken },
      {
        onError: (error) => {
          const apiError = toApiError(error);
          if (apiError.status !== 422) return;
          setCollapsed(true);
          for (const field of REGISTER_FIELDS) {
            const message = apiError.fieldError(field);
            if (message) setError(field, { type: 'server', message });
          }
        },
      },
    );
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (collapsed || step === LAST_STEP) {
      void submit(event);
      return;
    }
    event.preventDefault();
    const current = registerSteps[step];
    if (!current) return;
    if (stepValid[step]) goToStep(step + 1);
    else void trigger([...current.fields]);
  };

  const failure = signUp.error ? toApiError(signUp.error) : null;
  const failureText = (() => {
    if (!failure) return null;
    if (failure.status !== 422) return failure.message;
    const unplaced = Object.entries(failure.errors).find(([field]) => !isRegisterField(field));
    if (unplaced?.[1][0]) return unplaced[1][0];
    return Object.keys(failure.errors).length > 0 ? m['auth.register.fixErrors']() : failure.message;
  })();

  const autoFocus = !collapsed;

  const sections: Record<RegisterStepId, ReactNode> = {
    email: (
      <Stack gap="4">
        <Field.Root required invalid={!!errors.email}>
          <Field.Label>
            {m['auth.register.email']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            {...register('email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            autoCapitalize="none"
            autoFocus={autoFocus}
          />
          {errors.email ? (
            <Field.ErrorText>{errors.email?.message}</Field.ErrorText>
          ) : (
            <Field.HelperText>{m['auth.register.emailHelp']()}</Field.HelperText>
          )}
        </Field.Root>
        <Controller
          control={control}
          name="receiveNewsletter"
          render={({ field }) => (
            <Checkbox.Root
              checked={field.value}
              onCheckedChange={({ checked }) => field.onChange(checked === true)}
              name={field.name}
              alignItems="flex-start"
            >
              <Checkbox.HiddenInput onBlur={field.onBlur} />
              <Checkbox.Control mt="0.5" />
              <Checkbox.Label fontWeight="normal">{m['auth.register.receiveNewsletter']()}</Checkbox.Label>
            </Checkbox.Root>
          )}
        />
      </Stack>
    ),
    dob: (
      <Controller
        control={control}
        name="dob"
        render={({ field }) => (
          <Fieldset.Root invalid={!!errors.dob}>
            <Fieldset.Legend fontSize="sm" fontWeight="medium" mb="1.5">
              {m['auth.register.dob']()}
              <Text as="span" color="fg.error" aria-hidden ms="1">
                {m['form.requiredMark']()}
              </Text>
            </Fieldset.Legend>
            <DateInput
              name={field.name}
              defaultValue={field.value}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              // A complete date the rules reject (too young, or the server's word) flags every part.
              invalid={!!errors.dob && !!field.value}
              autoFocus={autoFocus}
            />
            {errors.dob ? (
              <Fieldset.ErrorText>{errors.dob?.message}</Fieldset.ErrorText>
            ) : (
              <Fieldset.HelperText>{m['auth.register.dobHelp']()}</Fieldset.HelperText>
            )}
          </Fieldset.Root>
        )}
      />
    ),
    username: (
      <Field.Root required invalid={!!errors.username}>
        <Field.Label>
          {m['auth.register.username']()}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input
          {...register('username')}
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          autoFocus={autoFocus}
        />
        {errors.username ? (
          <Field.ErrorText>{errors.username?.message}</Field.ErrorText>
        ) : (
          <Field.HelperText>{m['auth.register.usernameHelp']()}</Field.HelperText>
        )}
      </Field.Root>
    ),
    password: (
      <Stack gap="4">
        <Field.Root required invalid={!!errors.password}>
          <Field.Label>
            {m['auth.register.password']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput
            {...register('password', {
              onChange: () => {
                if (getFieldState('passwordConfirm').isTouched) void trigger('passwordConfirm');
              },
            })}
            autoComplete="new-password"
            autoFocus={autoFocus}
          />
          <Field.ErrorText>{errors.password?.message}</Field.ErrorText>
          <PasswordStrengthMeter password={values.password} mt="1" />
        </Field.Root>
        <Field.Root required invalid={!!errors.passwordConfirm}>
          <Field.Label>
            {m['auth.register.passwordConfirm']()}
            <Field.RequiredIndicator />
          </Field.Label>
          <PasswordInput {...register('passwordConfirm')} autoComplete="new-password" />
          <Field.ErrorText>{errors.passwordConfirm?.message}</Field.ErrorText>
        </Field.Root>
      </Stack>
    ),
  };

  const busy = gettingToken || signUp.isPending;
  const current = registerSteps[step];

  return (
    <form onSubmit={onSubmit} onKeyDown={enterToNextField} noValidate>
      {!collapsed && <RegisterSteps current={step} />}
      <Stack gap="6">
        {failureText && (
          <Alert.Root status="error" borderRadius="lg" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{m['auth.register.failed']()}</Alert.Title>
              <Alert.Description>{failureText}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}

        {collapsed ? (
          registerSteps.map((section) => <Stack key={section.id}>{sections[section.id]}</Stack>)
        ) : (
          // Each step mounts afresh, so its first field takes the focus.
          <Stack key={step}>{current && sections[current.id]}</Stack>
        )}

        {collapsed ? (
          <Button type="submit" size="lg" disabled={!allValid} loading={busy}>
            {m['auth.register.submit']()}
          </Button>
        ) : (
          <HStack gap="3">
            {step > 0 && (
              <Button type="button" variant="outline" size="lg" onClick={goBack} disabled={busy}>
                {m['auth.register.back']()}
              </Button>
            )}
            <Button type="submit" size="lg" flex="1" disabled={!stepValid[step]} loading={busy}>
              {step === LAST_STEP ? m['auth.register.submit']() : m['auth.register.next']()}
            </Button>
          </HStack>
        )}
      </Stack>
    </form>
  );
}
