import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ClsService } from 'nestjs-cls';
import { ApiErrorResponses, type RequestContext } from '../../common/index.js';
import { UncountedRead, V1_OPERATION_ERRORS } from '../../policies/rate-limit/index.js';
import { RateLimitStatusDto } from './dto/rate-limit-status.dto.js';
import { KEYS_TAG } from './keys.openapi.js';

@ApiTags(KEYS_TAG)
@ApiBearerAuth('bearer')
@Controller('rate_limit')
export class RateLimitStatusController {
  constructor(private readonly cls: ClsService<RequestContext>) {}

  @Get()
  @UncountedRead()
  @ApiOperation({
    summary: "The caller's quota",
    description:
      "The client's plan and both windows now, read by the limiter without counting this request; its quota headers say the same. Any valid key may call it; a suspended key gets its 429.",
  })
  @ApiOkResponse({ description: "The caller's plan and both windows.", type: RateLimitStatusDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS)
  getRateLimit(): RateLimitStatusDto {
    const reading = this.cls.get('quota');
    if (!reading) throw new Error('The limiter read no quota for GET /v1/rate_limit: is the route marked @UncountedRead()?');
    return reading;
  }
}
