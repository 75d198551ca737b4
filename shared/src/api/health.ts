// health/live/ and health/ready/ (docs/operations.md#health).
import { Type } from '@sinclair/typebox';

export const LiveAnswer = Type.Object({ status: Type.Literal('live') });

export const ReadyAnswer = Type.Object({ status: Type.Literal('ready') });

export const NotReadyAnswer = Type.Object({ detail: Type.String() });
