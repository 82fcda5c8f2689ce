import { css } from 'styled-system/css';
import { Box, HStack, Stack, type StackProps } from 'styled-system/jsx';

import { Text } from '@/components/ui/text';
import { PASSWORD_LEVELS, passwordStrength, type PasswordStrength } from '@/lib/password-strength';
import { m } from '@/paraglide/messages';

const RANK: Record<PasswordStrength, number> = { weak: 0, medium: 1, strong: 2, veryStrong: 3 };
const STRENGTH_TEXT = {
  weak: m['password.strength.weak'],
  medium: m['password.strength.medium'],
  strong: m['password.strength.strong'],
  veryStrong: m['password.strength.veryStrong'],
} satisfies Record<PasswordStrength, () => string>;
/** The filled segments' colour, as a class: each written out here, where the build can read it. */
const COLOR: Record<PasswordStrength, string> = {
  weak: css({ bg: 'red.solid' }),
  medium: css({ bg: 'orange.solid' }),
  strong: css({ bg: 'green.solid' }),
  veryStrong: css({ bg: 'teal.solid' }),
};
const EMPTY = css({ bg: 'bg.muted' });

type PasswordStrengthMeterProps = Omit<StackProps, 'children'> & {
  password: string;
};

/** A three-segment bar and label for the password's strength, with the recommendation below. */
export function PasswordStrengthMeter({ password, ...props }: PasswordStrengthMeterProps) {
  const strength = passwordStrength(password);
  const rank = RANK[strength];
  const label = STRENGTH_TEXT[strength]();

  return (
    <Stack gap="1.5" {...props}>
      <HStack
        gap="1"
        role="meter"
        aria-label={m['password.strength.label']()}
        aria-valuemin={0}
        aria-valuemax={PASSWORD_LEVELS.length}
        aria-valuenow={rank}
        aria-valuetext={password ? label : undefined}
      >
        {PASSWORD_LEVELS.map((level, index) => (
          <Box
            key={level}
            flex="1"
            h="1.5"
            borderRadius="full"
            className={password && index < Math.max(rank, 1) ? COLOR[strength] : EMPTY}
            transition="background 0.2s"
          />
        ))}
      </HStack>
      {password && (
        <Text fontSize="xs" color="fg.muted">
          {m['password.strength.current']({ level: label })}
        </Text>
      )}
      <Text fontSize="xs" color="fg.muted">
        {m['password.requirement']()}
      </Text>
    </Stack>
  );
}
