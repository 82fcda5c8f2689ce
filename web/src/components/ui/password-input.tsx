import { Eye, EyeOff } from 'lucide-react';
import { useState, type Ref } from 'react';

import { m } from '@/paraglide/messages';
import { apiLimits } from '@/types/api-limits.gen';

import { IconButton } from './button';
import { Input, type InputProps } from './input';
import { InputGroup } from './input-group';

export const PASSWORD_MAX_LENGTH = apiLimits.RegisterBody.password.maxLength;

type PasswordInputProps = Omit<InputProps, 'type'> & { ref?: Ref<HTMLInputElement> };

/** A password field with a show/hide toggle; at most 128 characters unless told otherwise. */
export function PasswordInput({ ref, maxLength = PASSWORD_MAX_LENGTH, ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  const label = visible ? m['form.hidePassword']() : m['form.showPassword']();
  return (
    <InputGroup
      endElement={
        <IconButton
          type="button"
          variant="ghost"
          size="xs"
          me="-2"
          aria-label={label}
          title={label}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOff /> : <Eye />}
        </IconButton>
      }
    >
      <Input ref={ref} type={visible ? 'text' : 'password'} maxLength={maxLength} {...props} />
    </InputGroup>
  );
}
