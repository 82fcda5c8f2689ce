import { Alert } from '@/components/ui/alert';

/** Why a recovery form was refused, when no field of the form can say it. */
export function FailureAlert({ title, text }: { title: string; text: string }) {
  return (
    <Alert.Root status="error" borderRadius="lg" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{text}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
