import { Box, Circle, Flex, Text } from '@chakra-ui/react';
import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { registerSteps } from '../api/register';

/** The four sign-up steps, the current one marked with `aria-current="step"`. */
export function RegisterSteps({ current }: { current: number }) {
  const { t } = useTranslation();
  return (
    <Box mb="6">
      <Flex as="ol" aria-label={t('auth.register.stepsLabel')} gap="2" listStyleType="none">
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
                borderColor={done || active ? 'brand.solid' : 'border'}
                bg={done ? 'brand.solid' : 'transparent'}
                color={done ? 'brand.contrast' : active ? 'brand.fg' : 'fg.muted'}
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
                {t(`auth.register.steps.${step.id}`)}
              </Text>
            </Flex>
          );
        })}
      </Flex>
      <Text srOnly aria-live="polite">
        {t('auth.register.stepOf', { current: current + 1, total: registerSteps.length })}
      </Text>
    </Box>
  );
}
