import { Check } from 'lucide-react';
import { css } from 'styled-system/css';
import { Box, Circle, Flex } from 'styled-system/jsx';

import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

import { registerSteps, type RegisterStepId } from '../api/register';

/** A step's number circle: filled once done, outlined in the brand's colour while current. */
const MARK = {
  done: css({ borderColor: 'brand.solid', bg: 'brand.solid', color: 'brand.contrast' }),
  current: css({ borderColor: 'brand.solid', bg: 'transparent', color: 'brand.fg' }),
  later: css({ borderColor: 'border', bg: 'transparent', color: 'fg.muted' }),
};

const STEP_NAME = {
  email: m['auth.register.steps.email'],
  dob: m['auth.register.steps.dob'],
  username: m['auth.register.steps.username'],
  password: m['auth.register.steps.password'],
} satisfies Record<RegisterStepId, () => string>;

/** The four sign-up steps, the current one marked with `aria-current="step"`. */
export function RegisterSteps({ current }: { current: number }) {
  return (
    <Box mb="6">
      <Flex as="ol" aria-label={m['auth.register.stepsLabel']()} gap="2" listStyleType="none">
        {registerSteps.map((step, index) => {
          const done = index < current;
          const active = index === current;
          return (
            <Flex
              as="li"
              key={step.id}
              flex="1"
              direction="column"
              align="center"
              gap="1.5"
              minW="0"
              aria-current={active ? 'step' : undefined}
              data-complete={done ? '' : undefined}
            >
              <Circle
                size="8"
                fontSize="sm"
                fontWeight="semibold"
                borderWidth="2px"
                className={done ? MARK.done : active ? MARK.current : MARK.later}
                transition="all 0.2s"
              >
                {done ? <Check size={16} aria-hidden /> : index + 1}
              </Circle>
              <Text
                fontSize="xs"
                textAlign="center"
                lineHeight="short"
                color={active ? 'fg' : 'fg.muted'}
                fontWeight={active ? 'semibold' : 'normal'}
              >
                {STEP_NAME[step.id]()}
              </Text>
            </Flex>
          );
        })}
      </Flex>
      <Text srOnly aria-live="polite">
        {m['auth.register.stepOf']({ current: current + 1, total: registerSteps.length })}
      </Text>
    </Box>
  );
}
