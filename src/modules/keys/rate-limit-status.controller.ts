import { Controller, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrorResponses } from '../../common/index.js';
import { QuotaReadings, UncountedRead, V1_OPERATION_ERRORS } from '../../policies/rate-limit/index.js';
import { RateLimitStatusDto } from './dto/rate-limit-status.dto.js';
import { KEYS_TAG } from './keys.openapi.js';

@ApiTags(KEYS_TAG)
@ApiBearerAuth('bearer')
@Controller('rate_limit')
export class RateLimitStatusController {
  constructor(private readonly readings: QuotaReadings) {}

  @Get()
  @UncountedRead()
  @ApiOperation({
    summary: "The caller's quota",
    description:
      "The client's plan and both windows now, read by the limiter without counting this request; its quota headers say the same. Any valid key may call it; a suspended key gets its 429.",
  })
  @ApiOkResponse({ description: "The caller's plan and both windows.", type: RateLimitStatusDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS)
  getRateLimit(@Req() request: Request): RateLimitStatusDto {
    return this.readings.of(request);
  }
}
