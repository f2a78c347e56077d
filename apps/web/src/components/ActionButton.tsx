import { Button, IconButton, Tooltip, type ButtonProps } from '@mui/material';
import { useId, type ReactNode } from 'react';
import type { Permission } from '../api/get-cluster-context';
import { useI18n } from '../i18n/context';
import { refusalText } from './refusal-text';

// In a module of its own so that the shell (ClusterRights) does not pull this button, and MUI's
// Tooltip and Popper with it, into the first load (issue 14).
export { refusalText } from './refusal-text';

interface ActionButtonProps extends Omit<ButtonProps, 'disabled'> {
  /** The access review's verdict; undefined while it is loading. */
  permission: Permission | undefined;
  /** Another reason to refuse (a provider gate, a pool being deleted), in words. */
  blockedReason?: string | undefined;
  /** Render as an icon button labelled by `label`. */
  icon?: ReactNode;
  label: string;
}

/**
 * A mutating action. When the user may not do it, the button stays focusable but inert
 * (`aria-disabled`) and says why, to the eye (tooltip) and to a screen reader (description).
 */
export function ActionButton({
  permission,
  blockedReason,
  icon,
  label,
  onClick,
  ...rest
}: ActionButtonProps) {
  const i18n = useI18n();
  const reasonId = useId();
  const reason =
    blockedReason ?? (permission === undefined ? undefined : refusalText(permission, i18n));
  const disabled = reason !== undefined || permission === undefined;
  const common = {
    'aria-disabled': disabled ? ('true' as const) : undefined,
    'aria-describedby': reason ? reasonId : undefined,
    onClick: disabled ? undefined : onClick,
  };
  const button = icon ? (
    <IconButton
      aria-label={label}
      size="small"
      {...common}
      sx={disabled ? { opacity: 0.45, cursor: 'not-allowed' } : undefined}
    >
      {icon}
    </IconButton>
  ) : (
    <Button
      {...rest}
      {...common}
      sx={disabled ? { opacity: 0.5, cursor: 'not-allowed' } : undefined}
    >
      {label}
    </Button>
  );
  return (
    <>
      {reason ? (
        <Tooltip title={reason} describeChild>
          {button}
        </Tooltip>
      ) : icon ? (
        <Tooltip title={label}>{button}</Tooltip>
      ) : (
        button
      )}
      {reason && (
        <span id={reasonId} hidden>
          {reason}
        </span>
      )}
    </>
  );
}
