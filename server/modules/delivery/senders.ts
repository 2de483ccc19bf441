// The sender of each channel kind.
import type { DeliveryKind } from '../../../contracts/delivery.ts';
import type { ChannelSender } from './channel.ts';
import { sendWebhook } from './channels/webhook.ts';
import { sendEmail } from './channels/email.ts';
import { sendSms } from './channels/sms.ts';

export const SENDERS: Record<DeliveryKind, ChannelSender> = { webhook: sendWebhook, email: sendEmail, sms: sendSms };
