# GENERATED FILE, do not edit. oneDNN v3.2 (commit 04b180b9a58a78cf1a1cd2329671a5060c2be8de) public C headers
# include/oneapi/dnnl/{dnnl_common_types.h, dnnl_types.h, dnnl_config.h.in} evaluated by a C compiler, by
#     python plugins/onednn/tools/gen_constants.py --tag v3.2
# Struct layouts are those of the 64-bit Linux ABI the generator ran on.
"""oneDNN v3.2 C constants under their C names: enumerators, integer macros, struct layouts.

``ENUMS`` (per C enum type) and ``MACROS`` (per prefix) map each name to its value;
``EXPERIMENTAL`` names the ``#ifdef`` that guards a name (the library may be built without it).
``check_constants.verify`` compares these with the loaded library.
"""

ONEDNN_VERSION = (3, 2, 0)
SOURCE = "oneDNN v3.2 04b180b9a58a78cf1a1cd2329671a5060c2be8de"

# ---- enumerators

# dnnl_status_t
dnnl_success = 0
dnnl_out_of_memory = 1
dnnl_invalid_arguments = 2
dnnl_unimplemented = 3
dnnl_last_impl_reached = 4
dnnl_runtime_error = 5
dnnl_not_required = 6
dnnl_invalid_graph = 7
dnnl_invalid_graph_op = 8
dnnl_invalid_shape = 9
dnnl_invalid_data_type = 10

# dnnl_data_type_t
dnnl_data_type_undef = 0
dnnl_f16 = 1
dnnl_bf16 = 2
dnnl_f32 = 3
dnnl_s32 = 4
dnnl_s8 = 5
dnnl_u8 = 6
dnnl_f64 = 7
dnnl_boolean = 8
dnnl_data_type_max = 32767

# dnnl_fpmath_mode_t
dnnl_fpmath_mode_strict = 0
dnnl_fpmath_mode_bf16 = 1
dnnl_fpmath_mode_f16 = 2
dnnl_fpmath_mode_any = 3
dnnl_fpmath_mode_tf32 = 4

# dnnl_engine_kind_t
dnnl_any_engine = 0
dnnl_cpu = 1
dnnl_gpu = 2

# dnnl_stream_flags_t
dnnl_stream_in_order = 1
dnnl_stream_out_of_order = 2
dnnl_stream_default_flags = 1
dnnl_stream_profiling = 4

# dnnl_format_kind_t
dnnl_format_kind_undef = 0
dnnl_format_kind_any = 1
dnnl_blocked = 2
dnnl_format_kind_opaque = 3
dnnl_format_kind_sparse = 4
dnnl_format_kind_max = 32767

# dnnl_sparse_encoding_t
dnnl_sparse_encoding_undef = 0
dnnl_csr = 1

# dnnl_profiling_data_kind_t
dnnl_profiling_data_kind_undef = 0
dnnl_profiling_data_kind_time = 1

# dnnl_format_tag_t
dnnl_format_tag_undef = 0
dnnl_format_tag_any = 1
dnnl_a = 2
dnnl_ab = 3
dnnl_abc = 4
dnnl_abcd = 5
dnnl_abcde = 6
dnnl_abcdef = 7
dnnl_abcdefg = 8
dnnl_abcdefgh = 9
dnnl_abcdefghi = 10
dnnl_abcdefghij = 11
dnnl_abcdefghijk = 12
dnnl_abcdefghijkl = 13
dnnl_ba = 14
dnnl_acb = 15
dnnl_bac = 16
dnnl_bca = 17
dnnl_cab = 18
dnnl_cba = 19
dnnl_abdc = 20
dnnl_acbd = 21
dnnl_acdb = 22
dnnl_adbc = 23
dnnl_adcb = 24
dnnl_bacd = 25
dnnl_bcda = 26
dnnl_cdab = 27
dnnl_cdba = 28
dnnl_dcab = 29
dnnl_abced = 30
dnnl_abdec = 31
dnnl_acbde = 32
dnnl_acdeb = 33
dnnl_adecb = 34
dnnl_bacde = 35
dnnl_bcdea = 36
dnnl_cdeab = 37
dnnl_cdeba = 38
dnnl_decab = 39
dnnl_abcdfe = 40
dnnl_abdefc = 41
dnnl_abdfce = 42
dnnl_acbdef = 43
dnnl_adefcb = 44
dnnl_defcab = 45
dnnl_abcdegf = 46
dnnl_abcdefhg = 47
dnnl_abcdefgih = 48
dnnl_abcdefghji = 49
dnnl_abcdefghikj = 50
dnnl_abcdefghijlk = 51
dnnl_Abc16a = 52
dnnl_ABc16a16b = 53
dnnl_ABc32a32b = 54
dnnl_ABc4a4b = 55
dnnl_aBc16b = 56
dnnl_ABc16b16a = 57
dnnl_Abc4a = 58
dnnl_aBc32b = 59
dnnl_aBc4b = 60
dnnl_ABc4b16a4b = 61
dnnl_ABc2b8a4b = 62
dnnl_ABc16b16a4b = 63
dnnl_ABc16b16a2b = 64
dnnl_ABc4b4a = 65
dnnl_ABc8a16b2a = 66
dnnl_ABc8a8b = 67
dnnl_ABc8a4b = 68
dnnl_aBc8b = 69
dnnl_ABc8b16a2b = 70
dnnl_BAc8a16b2a = 71
dnnl_ABc8b8a = 72
dnnl_Abcd16a = 73
dnnl_Abcd8a = 74
dnnl_ABcd16a16b = 75
dnnl_Abcd32a = 76
dnnl_ABcd32a32b = 77
dnnl_aBcd16b = 78
dnnl_ABcd16b16a = 79
dnnl_aBCd16b16c = 80
dnnl_aBCd16c16b = 81
dnnl_Abcd4a = 82
dnnl_aBcd32b = 83
dnnl_aBcd4b = 84
dnnl_ABcd4b16a4b = 85
dnnl_ABcd16b16a4b = 86
dnnl_ABcd16b16a2b = 87
dnnl_ABcd4b4a = 88
dnnl_ABcd4a4b = 89
dnnl_aBCd2c4b2c = 90
dnnl_aBCd4b8c2b = 91
dnnl_aBCd4c16b4c = 92
dnnl_aBCd2c8b4c = 93
dnnl_aBCd16c16b4c = 94
dnnl_aBCd16c16b2c = 95
dnnl_aBCd4c4b = 96
dnnl_aBCd4b4c = 97
dnnl_ABcd8a16b2a = 98
dnnl_ABcd2b8a4b = 99
dnnl_ABcd8a8b = 100
dnnl_ABcd8a4b = 101
dnnl_aBcd8b = 102
dnnl_aBCd4c8b2c = 103
dnnl_ABcd8b16a2b = 104
dnnl_aBCd8b16c2b = 105
dnnl_BAcd8a16b2a = 106
dnnl_ABcd8b8a = 107
dnnl_aBCd8b8c = 108
dnnl_aBCd8b4c = 109
dnnl_aBCd8c16b2c = 110
dnnl_ABcde8a16b2a = 111
dnnl_aCBd8b16c2b = 112
dnnl_aBCd8c8b = 113
dnnl_Abcde16a = 114
dnnl_Abcde32a = 115
dnnl_ABcde16a16b = 116
dnnl_BAcde8a16b2a = 117
dnnl_aBCd2b4c2b = 118
dnnl_ABcde4b16a4b = 119
dnnl_ABcde2b8a4b = 120
dnnl_aBcde16b = 121
dnnl_ABcde16b16a = 122
dnnl_aBCde16b16c = 123
dnnl_aBCde16c16b = 124
dnnl_aBCde2c8b4c = 125
dnnl_Abcde4a = 126
dnnl_aBcde32b = 127
dnnl_aBcde4b = 128
dnnl_ABcde4b4a = 129
dnnl_ABcde4a4b = 130
dnnl_aBCde4b4c = 131
dnnl_aBCde2c4b2c = 132
dnnl_aBCde4b8c2b = 133
dnnl_aBCde4c16b4c = 134
dnnl_aBCde16c16b4c = 135
dnnl_aBCde16c16b2c = 136
dnnl_aBCde4c4b = 137
dnnl_Abcde8a = 138
dnnl_ABcde8a8b = 139
dnnl_ABcde8a4b = 140
dnnl_BAcde16b16a = 141
dnnl_aBcde8b = 142
dnnl_ABcde8b16a2b = 143
dnnl_aBCde8b16c2b = 144
dnnl_aBCde4c8b2c = 145
dnnl_aCBde8b16c2b = 146
dnnl_ABcde8b8a = 147
dnnl_ABcde32a32b = 148
dnnl_aBCde8b8c = 149
dnnl_aBCde8b4c = 150
dnnl_ABc4a8b8a4b = 151
dnnl_ABcd4a8b8a4b = 152
dnnl_ABcde4a8b8a4b = 153
dnnl_BAc4b8a8b4a = 154
dnnl_BAcd4b8a8b4a = 155
dnnl_BAcde4b8a8b4a = 156
dnnl_ABcd2a8b8a2b = 157
dnnl_aBCd4b8c8b4c = 158
dnnl_aBCde4b8c8b4c = 159
dnnl_aBCde2b8c8b2c = 160
dnnl_aBCde8c16b2c = 161
dnnl_aBCde8c8b = 162
dnnl_aBCde2b4c2b = 163
dnnl_aBcdef16b = 164
dnnl_aBCdef16b16c = 165
dnnl_aBCdef16c16b = 166
dnnl_aBCdef4c16b4c = 167
dnnl_aBCdef2c8b4c = 168
dnnl_aBCdef4c8b2c = 169
dnnl_aBCdef2b4c2b = 170
dnnl_aBcdef4b = 171
dnnl_aBCdef4c4b = 172
dnnl_aBCdef4b4c = 173
dnnl_aBCdef2c4b2c = 174
dnnl_aBCdef4b8c2b = 175
dnnl_aBCdef8b8c = 176
dnnl_aBCdef8b4c = 177
dnnl_aBCdef8c16b2c = 178
dnnl_aBCdef4b8c8b4c = 179
dnnl_aBCdef8b16c2b = 180
dnnl_aCBdef8b16c2b = 181
dnnl_aBCdef8c8b = 182
dnnl_aBdc16b = 183
dnnl_aBdC16b2c = 184
dnnl_aBdC16b4c = 185
dnnl_aBdc4b = 186
dnnl_aBdc8b = 187
dnnl_aBdec16b = 188
dnnl_aBdeC16b2c = 189
dnnl_aBdeC16b4c = 190
dnnl_aBdec32b = 191
dnnl_aBdec4b = 192
dnnl_aBdec8b = 193
dnnl_aBdefc16b = 194
dnnl_aBdefC16b2c = 195
dnnl_aCBdef16c16b = 196
dnnl_aBdefc4b = 197
dnnl_aBdefc8b = 198
dnnl_Abcdef16a = 199
dnnl_Abcdef32a = 200
dnnl_aBedc16b = 201
dnnl_Acb16a = 202
dnnl_AcB16a2b = 203
dnnl_AcB16a4b = 204
dnnl_Acb4a = 205
dnnl_Acb8a = 206
dnnl_aCBd16b16c = 207
dnnl_aCBd16c16b = 208
dnnl_aCBde16b16c = 209
dnnl_aCBde16c16b = 210
dnnl_Acdb16a = 211
dnnl_AcdB16a2b = 212
dnnl_AcdB16a4b = 213
dnnl_Acdb32a = 214
dnnl_Acdb4a = 215
dnnl_Acdb8a = 216
dnnl_Acdeb16a = 217
dnnl_AcdeB16a2b = 218
dnnl_Acdeb4a = 219
dnnl_Acdeb8a = 220
dnnl_Adcb16a = 221
dnnl_BAc16a16b = 222
dnnl_BAc16b16a = 223
dnnl_BAcd16a16b = 224
dnnl_BAcd16b16a = 225
dnnl_aCBd4c8b8c4b = 226
dnnl_aCBde4c8b8c4b = 227
dnnl_aCBdef4c8b8c4b = 228
dnnl_BAcde16a16b = 229
dnnl_aCBdef16b16c = 230
dnnl_ABc16b32a = 231
dnnl_ABc16b64a = 232
dnnl_ABc4b32a4b = 233
dnnl_ABc4b64a4b = 234
dnnl_ABc8b32a2b = 235
dnnl_ABc8b64a2b = 236
dnnl_AB16b16a = 237
dnnl_AB16b32a = 238
dnnl_AB16b64a = 239
dnnl_AB8b16a2b = 240
dnnl_AB8b32a2b = 241
dnnl_AB8b64a2b = 242
dnnl_AB4b16a4b = 243
dnnl_AB4b32a4b = 244
dnnl_AB4b64a4b = 245
dnnl_AB16b16a4b = 246
dnnl_ABcd16b32a = 247
dnnl_ABcd16b64a = 248
dnnl_ABcd4b32a4b = 249
dnnl_ABcd4b64a4b = 250
dnnl_ABcd8b32a2b = 251
dnnl_ABcd8b64a2b = 252
dnnl_ABcde4b32a4b = 253
dnnl_ABcde4b64a4b = 254
dnnl_ABcde16b16a4b = 255
dnnl_ABcde16b16a2b = 256
dnnl_ABcde16b32a = 257
dnnl_ABcde16b64a = 258
dnnl_ABcde8b32a2b = 259
dnnl_ABcde8b64a2b = 260
dnnl_aBCdef16c16b4c = 261
dnnl_aBCdef16c16b2c = 262
dnnl_AB32a32b8a4b = 263
dnnl_AB8a4b = 264
dnnl_AB32a32b8a2b = 265
dnnl_AB8a2b = 266
dnnl_abDc32d = 267
dnnl_abDC32d4c = 268
dnnl_abdEc32e = 269
dnnl_abdEC32e2c = 270
dnnl_abdEC32e4c = 271
dnnl_aBdefC16b4c = 272
dnnl_AcdeB16a4b = 273
dnnl_ABcd16a16b2a = 274
dnnl_ABc16a16b2a = 275
dnnl_aBCd16b16c2b = 276
dnnl_aBCde16b16c2b = 277
dnnl_Acb32a = 278
dnnl_AcB32a2b = 279
dnnl_AcB32a4b = 280
dnnl_Acb48a = 281
dnnl_AcB48a2b = 282
dnnl_AcB48a4b = 283
dnnl_Acb64a = 284
dnnl_AcB64a2b = 285
dnnl_AcB64a4b = 286
dnnl_cBa2b = 287
dnnl_cBa4b = 288
dnnl_aBdc32b = 289
dnnl_aBdC32b2c = 290
dnnl_aBdC32b4c = 291
dnnl_aBdc48b = 292
dnnl_aBdC48b2c = 293
dnnl_aBdC48b4c = 294
dnnl_aBdc64b = 295
dnnl_aBdC64b2c = 296
dnnl_aBdC64b4c = 297
dnnl_adCb2c = 298
dnnl_adCb4c = 299
dnnl_AcdB32a2b = 300
dnnl_AcdB32a4b = 301
dnnl_Acdb48a = 302
dnnl_AcdB48a2b = 303
dnnl_AcdB48a4b = 304
dnnl_Acdb64a = 305
dnnl_AcdB64a2b = 306
dnnl_AcdB64a4b = 307
dnnl_cdBa2b = 308
dnnl_cdBa4b = 309
dnnl_aBdeC32b2c = 310
dnnl_aBdeC32b4c = 311
dnnl_aBdec48b = 312
dnnl_aBdeC48b2c = 313
dnnl_aBdeC48b4c = 314
dnnl_aBdec64b = 315
dnnl_aBdeC64b2c = 316
dnnl_aBdeC64b4c = 317
dnnl_adeCb2c = 318
dnnl_adeCb4c = 319
dnnl_Acdeb32a = 320
dnnl_AcdeB32a2b = 321
dnnl_AcdeB32a4b = 322
dnnl_Acdeb48a = 323
dnnl_AcdeB48a2b = 324
dnnl_AcdeB48a4b = 325
dnnl_Acdeb64a = 326
dnnl_AcdeB64a2b = 327
dnnl_AcdeB64a4b = 328
dnnl_cdeBa2b = 329
dnnl_cdeBa4b = 330
dnnl_aBdefc32b = 331
dnnl_aBdefC32b2c = 332
dnnl_aBdefC32b4c = 333
dnnl_aBdefc48b = 334
dnnl_aBdefC48b2c = 335
dnnl_aBdefC48b4c = 336
dnnl_aBdefc64b = 337
dnnl_aBdefC64b2c = 338
dnnl_aBdefC64b4c = 339
dnnl_adefCb2c = 340
dnnl_adefCb4c = 341
dnnl_AB16b32a4b = 342
dnnl_AB16b48a4b = 343
dnnl_AB16b64a4b = 344
dnnl_AB16b16a2b = 345
dnnl_AB16b32a2b = 346
dnnl_AB16b48a2b = 347
dnnl_AB16b64a2b = 348
dnnl_ABc16b32a4b = 349
dnnl_ABc16b48a4b = 350
dnnl_ABc16b64a4b = 351
dnnl_ABc16b32a2b = 352
dnnl_ABc16b48a2b = 353
dnnl_ABc16b64a2b = 354
dnnl_ABcd16b32a4b = 355
dnnl_ABcd16b48a4b = 356
dnnl_ABcd16b64a4b = 357
dnnl_ABcd16b32a2b = 358
dnnl_ABcd16b48a2b = 359
dnnl_ABcd16b64a2b = 360
dnnl_ABcde16b32a4b = 361
dnnl_ABcde16b48a4b = 362
dnnl_ABcde16b64a4b = 363
dnnl_ABcde16b32a2b = 364
dnnl_ABcde16b48a2b = 365
dnnl_ABcde16b64a2b = 366
dnnl_ABc32a16b = 367
dnnl_ABcd32a16b = 368
dnnl_ABcde32a16b = 369
dnnl_AB48a16b = 370
dnnl_AB48a32b = 371
dnnl_ABc40a16b = 372
dnnl_ABc40a32b = 373
dnnl_aBC48b16c = 374
dnnl_aBC48b32c = 375
dnnl_ABcd40a16b = 376
dnnl_ABcd40a32b = 377
dnnl_abCd32c = 378
dnnl_abdCe32c = 379
dnnl_abdCE32c2e = 380
dnnl_BA16a16b2a = 381
dnnl_BA16a32b2a = 382
dnnl_BA16a48b2a = 383
dnnl_BA16a64b2a = 384
dnnl_BA16a16b4a = 385
dnnl_BA16a32b4a = 386
dnnl_BA16a48b4a = 387
dnnl_BA16a64b4a = 388
dnnl_ABcd8a2b = 389
dnnl_aBdeC16c16b2c = 390
dnnl_aBdeC16c16b4c = 391
dnnl_aBdefC16c16b2c = 392
dnnl_AcB16b16a2b = 393
dnnl_AcB16b16a4b = 394
dnnl_AcdB16b16a2b = 395
dnnl_AcdB16b16a4b = 396
dnnl_AcdeB16b16a2b = 397
dnnl_aBdefC16c16b4c = 398
dnnl_AcdeB16b16a4b = 399
dnnl_AcB16b32a2b = 400
dnnl_AcB16b32a4b = 401
dnnl_AcB16b48a2b = 402
dnnl_AcB16b48a4b = 403
dnnl_AcB16b64a2b = 404
dnnl_AcB16b64a4b = 405
dnnl_aBdC16c16b2c = 406
dnnl_aBdC16c16b4c = 407
dnnl_aBdC16c32b2c = 408
dnnl_aBdC16c32b4c = 409
dnnl_aBdC16c48b2c = 410
dnnl_aBdC16c48b4c = 411
dnnl_aBdC16c64b2c = 412
dnnl_aBdC16c64b4c = 413
dnnl_AcdB16b32a2b = 414
dnnl_AcdB16b32a4b = 415
dnnl_AcdB16b48a2b = 416
dnnl_AcdB16b48a4b = 417
dnnl_AcdB16b64a2b = 418
dnnl_AcdB16b64a4b = 419
dnnl_aBdeC16c32b2c = 420
dnnl_aBdeC16c32b4c = 421
dnnl_aBdeC16c48b2c = 422
dnnl_aBdeC16c48b4c = 423
dnnl_aBdeC16c64b2c = 424
dnnl_aBdeC16c64b4c = 425
dnnl_AcdeB16b32a2b = 426
dnnl_AcdeB16b32a4b = 427
dnnl_AcdeB16b48a2b = 428
dnnl_AcdeB16b48a4b = 429
dnnl_AcdeB16b64a2b = 430
dnnl_AcdeB16b64a4b = 431
dnnl_aBdefC16c32b2c = 432
dnnl_aBdefC16c32b4c = 433
dnnl_aBdefC16c48b2c = 434
dnnl_aBdefC16c48b4c = 435
dnnl_aBdefC16c64b2c = 436
dnnl_aBdefC16c64b4c = 437
dnnl_decbA16a = 438
dnnl_ABc4a2b = 439
dnnl_ABc8a2b = 440
dnnl_aBCd8b2c = 441
dnnl_ABcde4a2b = 442
dnnl_ABcde8a2b = 443
dnnl_ABcde40a16b = 444
dnnl_ABcde40a32b = 445
dnnl_aBCde8b2c = 446
dnnl_ABcde4a8b8a2b = 447
dnnl_ABcd4a8b8a2b = 448
dnnl_ABc4a8b8a2b = 449
dnnl_aBCdef4b8c8b2c = 450
dnnl_aBCde4b8c8b2c = 451
dnnl_aBCd4b8c8b2c = 452
dnnl_BAcde4b8a8b2a = 453
dnnl_BAcd4b8a8b2a = 454
dnnl_BAc4b8a8b2a = 455
dnnl_aCBdef4c8b8c2b = 456
dnnl_aCBde4c8b8c2b = 457
dnnl_aCBd4c8b8c2b = 458
dnnl_aBCdef8b2c = 459
dnnl_AB32a16b = 460
dnnl_AB32a32b = 461
dnnl_BA4b8a8b2a = 462
dnnl_BA4b8a8b4a = 463
dnnl_aBC32b16c = 464
dnnl_aBC32b32c = 465
dnnl_aCB4c8b8c2b = 466
dnnl_aCB4c8b8c4b = 467
dnnl_ABcd4a2b = 468
dnnl_ABc2b8a16b4a = 469
dnnl_ABcd2b8a16b4a = 470
dnnl_ABcde2b8a16b4a = 471
dnnl_ABc2a8b16a4b = 472
dnnl_ABc2a8b16a2b = 473
dnnl_ABc2b32a8b = 474
dnnl_ABcd2a8b16a4b = 475
dnnl_ABcd2a8b16a2b = 476
dnnl_aCBd2c8b16c2b = 477
dnnl_ABcd2b32a8b = 478
dnnl_aBCd2c8b16c2b = 479
dnnl_ABcde2a8b16a4b = 480
dnnl_ABcde2a8b16a2b = 481
dnnl_aCBde2c8b16c2b = 482
dnnl_ABcde2b32a8b = 483
dnnl_aBC2b8c16b2c = 484
dnnl_aBCd2b8c16b2c = 485
dnnl_aBCde2b8c16b2c = 486
dnnl_aBCdef2b8c16b2c = 487
dnnl_BAcde2b8a16b4a = 488
dnnl_BAcd2b8a16b4a = 489
dnnl_BAc2b8a16b4a = 490
dnnl_BAcde2b8a16b2a = 491
dnnl_BAcd2b8a16b2a = 492
dnnl_BAc2b8a16b2a = 493
dnnl_aBCde2c8b16c2b = 494
dnnl_aBCdef2c8b16c2b = 495
dnnl_aCBdef2c8b16c2b = 496
dnnl_aBCd2b8c16b4c = 497
dnnl_aBCde2b8c16b4c = 498
dnnl_BA4b8a16b2a = 499
dnnl_BA4b8a16b4a = 500
dnnl_aCB4c8b16c2b = 501
dnnl_aCB4c8b16c4b = 502
dnnl_BA16a16b = 503
dnnl_BA16a32b = 504
dnnl_BA16a48b = 505
dnnl_BA16a64b = 506
dnnl_aCB16c2b = 507
dnnl_aCB16c4b = 508
dnnl_BA16b2a = 509
dnnl_BA16b4a = 510
dnnl_aBC16b16c = 511
dnnl_aBC16b32c = 512
dnnl_AB16a16b = 513
dnnl_AB16a32b = 514
dnnl_ABcde16a16b2a = 515
dnnl_aBCdef16b16c2b = 516
dnnl_Acedb16a = 517
dnnl_aBdfec16b = 518
dnnl_abdEC64e2c = 519
dnnl_abdEC64e4c = 520
dnnl_aCB16b16c = 521
dnnl_aCB16b32c = 522
dnnl_aCB16b48c = 523
dnnl_aCB16b64c = 524
dnnl_aCB16b16c2b = 525
dnnl_aCB16b32c2b = 526
dnnl_aCB16b48c2b = 527
dnnl_aCB16b64c2b = 528
dnnl_aCB16b16c4b = 529
dnnl_aCB16b32c4b = 530
dnnl_aCB16b48c4b = 531
dnnl_aCB16b64c4b = 532
dnnl_abCd4c = 533
dnnl_abCde4c = 534
dnnl_abCdef4c = 535
dnnl_abCde32c = 536
dnnl_abCdef32c = 537
dnnl_ABcd16a32b = 538
dnnl_decbA8a = 539
dnnl_aCdefB16b32c2b = 540
dnnl_aCdefB16b32c4b = 541
dnnl_aCdefB16b48c2b = 542
dnnl_aCdefB16b48c4b = 543
dnnl_aCdefB16b64c2b = 544
dnnl_aCdefB16b64c4b = 545
dnnl_BcdeA16a32b2a = 546
dnnl_BcdeA16a32b4a = 547
dnnl_BcdeA16a48b2a = 548
dnnl_BcdeA16a48b4a = 549
dnnl_BcdeA16a64b2a = 550
dnnl_BcdeA16a64b4a = 551
dnnl_aCdefb32c = 552
dnnl_aCdefB32c2b = 553
dnnl_aCdefB32c4b = 554
dnnl_aCdefb48c = 555
dnnl_aCdefB48c2b = 556
dnnl_aCdefB48c4b = 557
dnnl_aCdefb64c = 558
dnnl_aCdefB64c2b = 559
dnnl_aCdefB64c4b = 560
dnnl_Bcdea32b = 561
dnnl_BcdeA32b2a = 562
dnnl_BcdeA32b4a = 563
dnnl_Bcdea48b = 564
dnnl_BcdeA48b2a = 565
dnnl_BcdeA48b4a = 566
dnnl_Bcdea64b = 567
dnnl_BcdeA64b2a = 568
dnnl_BcdeA64b4a = 569
dnnl_Bca32b = 570
dnnl_BcA32b2a = 571
dnnl_BcA32b4a = 572
dnnl_Bca48b = 573
dnnl_BcA48b2a = 574
dnnl_BcA48b4a = 575
dnnl_Bca64b = 576
dnnl_BcA64b2a = 577
dnnl_BcA64b4a = 578
dnnl_aCdb32c = 579
dnnl_aCdB32c2b = 580
dnnl_aCdB32c4b = 581
dnnl_aCdb48c = 582
dnnl_aCdB48c2b = 583
dnnl_aCdB48c4b = 584
dnnl_aCdb64c = 585
dnnl_aCdB64c2b = 586
dnnl_aCdB64c4b = 587
dnnl_BcA16a16b2a = 588
dnnl_BcA16a16b4a = 589
dnnl_BcdA16a16b2a = 590
dnnl_BcdA16a16b4a = 591
dnnl_BcdeA16a16b2a = 592
dnnl_BcdeA16a16b4a = 593
dnnl_aCdB16b16c2b = 594
dnnl_aCdB16b16c4b = 595
dnnl_aCdeB16b16c2b = 596
dnnl_aCdeB16b16c4b = 597
dnnl_aCdefB16b16c2b = 598
dnnl_aCdefB16b16c4b = 599
dnnl_BcA16a32b2a = 600
dnnl_BcA16a32b4a = 601
dnnl_BcA16a48b2a = 602
dnnl_BcA16a48b4a = 603
dnnl_BcA16a64b2a = 604
dnnl_BcA16a64b4a = 605
dnnl_aCdB16b32c2b = 606
dnnl_aCdB16b32c4b = 607
dnnl_aCdB16b48c2b = 608
dnnl_aCdB16b48c4b = 609
dnnl_aCdB16b64c2b = 610
dnnl_aCdB16b64c4b = 611
dnnl_BcdA16a32b2a = 612
dnnl_BcdA16a32b4a = 613
dnnl_BcdA16a48b2a = 614
dnnl_BcdA16a48b4a = 615
dnnl_BcdA16a64b2a = 616
dnnl_BcdA16a64b4a = 617
dnnl_aCdeB16b32c2b = 618
dnnl_aCdeB16b32c4b = 619
dnnl_aCdeB16b48c2b = 620
dnnl_aCdeB16b48c4b = 621
dnnl_aCdeB16b64c2b = 622
dnnl_aCdeB16b64c4b = 623
dnnl_Bca16b = 624
dnnl_BcA16b2a = 625
dnnl_BcA16b4a = 626
dnnl_Bcda16b = 627
dnnl_BcdA16b2a = 628
dnnl_BcdA16b4a = 629
dnnl_Bcdea16b = 630
dnnl_BcdeA16b2a = 631
dnnl_BcdeA16b4a = 632
dnnl_aCdb16c = 633
dnnl_aCdB16c2b = 634
dnnl_aCdB16c4b = 635
dnnl_aCdeb16c = 636
dnnl_aCdeB16c2b = 637
dnnl_aCdeB16c4b = 638
dnnl_aCdefb16c = 639
dnnl_aCdefB16c2b = 640
dnnl_aCdefB16c4b = 641
dnnl_Bcda32b = 642
dnnl_BcdA32b2a = 643
dnnl_BcdA32b4a = 644
dnnl_Bcda48b = 645
dnnl_BcdA48b2a = 646
dnnl_BcdA48b4a = 647
dnnl_Bcda64b = 648
dnnl_BcdA64b2a = 649
dnnl_BcdA64b4a = 650
dnnl_aCdeb32c = 651
dnnl_aCdeB32c2b = 652
dnnl_aCdeB32c4b = 653
dnnl_aCdeb48c = 654
dnnl_aCdeB48c2b = 655
dnnl_aCdeB48c4b = 656
dnnl_aCdeb64c = 657
dnnl_aCdeB64c2b = 658
dnnl_aCdeB64c4b = 659
dnnl_Acb24a = 660
dnnl_Acdb24a = 661
dnnl_Acdeb24a = 662
dnnl_aBdc24b = 663
dnnl_aBdec24b = 664
dnnl_aBdefc24b = 665
dnnl_abDc16d = 666
dnnl_abdEc16e = 667
dnnl_abdCe16c = 668
dnnl_AcB24a2b = 669
dnnl_AcdB24a2b = 670
dnnl_AcdeB24a2b = 671
dnnl_aBdC24b2c = 672
dnnl_aBdeC24b2c = 673
dnnl_aBdefC24b2c = 674
dnnl_AcB8a2b = 675
dnnl_AcdB8a2b = 676
dnnl_AcdeB8a2b = 677
dnnl_aBdC8b2c = 678
dnnl_aBdeC8b2c = 679
dnnl_aBdefC8b2c = 680
dnnl_AB8b32a = 681
dnnl_ABc8b32a = 682
dnnl_ABcd8b32a = 683
dnnl_ABcde8b32a = 684
dnnl_AB8b24a = 685
dnnl_ABc8b24a = 686
dnnl_ABcd8b24a = 687
dnnl_ABcde8b24a = 688
dnnl_AB8b16a = 689
dnnl_ABc8b16a = 690
dnnl_ABcd8b16a = 691
dnnl_ABcde8b16a = 692
dnnl_AB8b8a = 693
dnnl_AB4b8a4b = 694
dnnl_AB4b24a4b = 695
dnnl_ABc4b8a4b = 696
dnnl_ABc4b24a4b = 697
dnnl_ABcd4b8a4b = 698
dnnl_ABcd4b24a4b = 699
dnnl_ABcde4b8a4b = 700
dnnl_ABcde4b24a4b = 701
dnnl_AB8b24a2b = 702
dnnl_ABc8b24a2b = 703
dnnl_ABcd8b24a2b = 704
dnnl_ABcde8b24a2b = 705
dnnl_AB8b8a2b = 706
dnnl_ABc8b8a2b = 707
dnnl_ABcd8b8a2b = 708
dnnl_ABcde8b8a2b = 709
dnnl_AcB24a4b = 710
dnnl_AcdB24a4b = 711
dnnl_AcdeB24a4b = 712
dnnl_aBdC24b4c = 713
dnnl_aBdeC24b4c = 714
dnnl_aBdefC24b4c = 715
dnnl_AcB8a4b = 716
dnnl_AcdB8a4b = 717
dnnl_AcdeB8a4b = 718
dnnl_aBdC8b4c = 719
dnnl_aBdeC8b4c = 720
dnnl_aBdefC8b4c = 721
dnnl_Bca8b = 722
dnnl_BcA8b2a = 723
dnnl_Bcda8b = 724
dnnl_BcdA8b2a = 725
dnnl_Bcdea8b = 726
dnnl_BcdeA8b2a = 727
dnnl_aCdb8c = 728
dnnl_aCdB8c2b = 729
dnnl_aCdeb8c = 730
dnnl_aCdeB8c2b = 731
dnnl_aCdefb8c = 732
dnnl_aCdefB8c2b = 733
dnnl_Bca24b = 734
dnnl_BcA24b2a = 735
dnnl_Bcda24b = 736
dnnl_BcdA24b2a = 737
dnnl_Bcdea24b = 738
dnnl_BcdeA24b2a = 739
dnnl_aCdb24c = 740
dnnl_aCdB24c2b = 741
dnnl_aCdeb24c = 742
dnnl_aCdeB24c2b = 743
dnnl_aCdefb24c = 744
dnnl_aCdefB24c2b = 745
dnnl_BcA8b4a = 746
dnnl_BcdA8b4a = 747
dnnl_BcdeA8b4a = 748
dnnl_aCdB8c4b = 749
dnnl_aCdeB8c4b = 750
dnnl_aCdefB8c4b = 751
dnnl_BcA24b4a = 752
dnnl_BcdA24b4a = 753
dnnl_BcdeA24b4a = 754
dnnl_aCdB24c4b = 755
dnnl_aCdeB24c4b = 756
dnnl_aCdefB24c4b = 757
dnnl_AB16b48a = 758
dnnl_ABc16b48a = 759
dnnl_ABcd16b48a = 760
dnnl_ABcde16b48a = 761
dnnl_format_tag_last = 762
dnnl_x = 2
dnnl_nc = 3
dnnl_cn = 14
dnnl_tn = 3
dnnl_nt = 14
dnnl_ncw = 4
dnnl_nwc = 15
dnnl_nchw = 5
dnnl_nhwc = 22
dnnl_chwn = 26
dnnl_ncdhw = 6
dnnl_ndhwc = 33
dnnl_oi = 3
dnnl_io = 14
dnnl_oiw = 4
dnnl_owi = 15
dnnl_wio = 19
dnnl_woi = 18
dnnl_iwo = 17
dnnl_oihw = 5
dnnl_hwio = 28
dnnl_hwoi = 27
dnnl_ohwi = 22
dnnl_ihwo = 26
dnnl_iohw = 25
dnnl_oidhw = 6
dnnl_iodhw = 35
dnnl_dhwio = 38
dnnl_dhwoi = 37
dnnl_odhwi = 33
dnnl_idhwo = 36
dnnl_goiw = 5
dnnl_gowi = 20
dnnl_wigo = 29
dnnl_goihw = 6
dnnl_gohwi = 31
dnnl_hwigo = 39
dnnl_giohw = 32
dnnl_goidhw = 7
dnnl_godhwi = 41
dnnl_giodhw = 43
dnnl_dhwigo = 45
dnnl_tnc = 4
dnnl_ntc = 16
dnnl_ldnc = 5
dnnl_ldigo = 6
dnnl_ldgoi = 31
dnnl_ldio = 5
dnnl_ldoi = 20
dnnl_ldgo = 5
dnnl_ldOi16o = 666
dnnl_ldOi32o = 267
dnnl_ldOI32o4i = 268
dnnl_ldIo32i = 378
dnnl_ldgOi16o = 667
dnnl_ldgOi32o = 269
dnnl_ldgOI32o2i = 270
dnnl_ldgOI32o4i = 271
dnnl_ldgOI64o2i = 519
dnnl_ldgOI64o4i = 520
dnnl_ldgIo16i = 668
dnnl_ldgIo32i = 379
dnnl_ldgIO32i2o = 380
dnnl_nCdhw32c = 127
dnnl_nCdhw16c = 121
dnnl_nCdhw4c = 128
dnnl_nCdhw8c = 142
dnnl_nChw32c = 83
dnnl_nChw16c = 78
dnnl_nChw4c = 84
dnnl_nChw8c = 102
dnnl_nCw32c = 59
dnnl_nCw16c = 56
dnnl_nCw4c = 60
dnnl_nCw8c = 69
dnnl_NCw16n16c = 53
dnnl_NCdhw16n16c = 116
dnnl_NChw16n16c = 75
dnnl_NCw32n16c = 367
dnnl_NChw32n16c = 368
dnnl_NChw16n32c = 538
dnnl_NCdhw32n16c = 369
dnnl_NCw32n32c = 54
dnnl_NChw32n32c = 77
dnnl_NCdhw32n32c = 148
dnnl_OI16i16o = 237
dnnl_OI16i32o = 238
dnnl_OI16i48o = 758
dnnl_OI16i64o = 239
dnnl_OI8i8o2i = 706
dnnl_OI8i16o2i = 240
dnnl_OI8i24o2i = 702
dnnl_OI8i32o2i = 241
dnnl_OI8i64o2i = 242
dnnl_OI4i8o4i = 694
dnnl_OI4i16o4i = 243
dnnl_OI4i24o4i = 695
dnnl_OI4i32o4i = 244
dnnl_OI4i64o4i = 245
dnnl_OI16i16o4i = 246
dnnl_OI8i32o = 681
dnnl_OI8i24o = 685
dnnl_OI8i16o = 689
dnnl_OI8i8o = 693
dnnl_IOw16o16i = 222
dnnl_IOw16i16o = 223
dnnl_OIw16i16o = 57
dnnl_OIw16i32o = 231
dnnl_OIw16i48o = 759
dnnl_OIw16i64o = 232
dnnl_OIw16o16i = 53
dnnl_Oiw16o = 52
dnnl_OIw4i8o4i = 696
dnnl_OIw4i16o4i = 61
dnnl_OIw4i24o4i = 697
dnnl_OIw4i32o4i = 233
dnnl_OIw4i64o4i = 234
dnnl_OIw2i8o4i = 62
dnnl_OIw16i16o4i = 63
dnnl_OIw16i16o2i = 64
dnnl_OIw16o16i2o = 275
dnnl_OIw4i4o = 65
dnnl_OIw4o4i = 55
dnnl_Oiw4o = 58
dnnl_OIw8i8o2i = 707
dnnl_OIw8i16o2i = 70
dnnl_OIw8i24o2i = 703
dnnl_OIw8i32o2i = 235
dnnl_OIw8i64o2i = 236
dnnl_OIw8i8o = 72
dnnl_OIw8o16i2o = 66
dnnl_IOw8o16i2o = 71
dnnl_OIw8o8i = 67
dnnl_OIw8o4i = 68
dnnl_Owi16o = 202
dnnl_OwI16o2i = 203
dnnl_OwI16o4i = 204
dnnl_Iwo8i = 722
dnnl_IwO8i2o = 723
dnnl_IwO8i4o = 746
dnnl_Iwo16i = 624
dnnl_IwO16i2o = 625
dnnl_IwO16i4o = 626
dnnl_Iwo24i = 734
dnnl_IwO24i2o = 735
dnnl_IwO24i4o = 752
dnnl_Owi4o = 205
dnnl_Owi8o = 206
dnnl_OwI8o2i = 675
dnnl_OIw8i32o = 682
dnnl_OIw8i24o = 686
dnnl_OIw8i16o = 690
dnnl_OwI8o4i = 716
dnnl_IOhw16i16o = 225
dnnl_IOhw16o16i = 224
dnnl_Ohwi16o = 211
dnnl_OhwI16o2i = 212
dnnl_OhwI16o4i = 213
dnnl_Ihwo8i = 724
dnnl_IhwO8i2o = 725
dnnl_IhwO8i4o = 747
dnnl_Ihwo16i = 627
dnnl_IhwO16i2o = 628
dnnl_IhwO16i4o = 629
dnnl_Ihwo24i = 736
dnnl_IhwO24i2o = 737
dnnl_IhwO24i4o = 753
dnnl_Ohwi24o = 661
dnnl_Ohwi32o = 214
dnnl_Ohwi4o = 215
dnnl_Ohwi8o = 216
dnnl_OhwI8o2i = 676
dnnl_OhwI8o4i = 717
dnnl_OIhw16i16o = 79
dnnl_OIhw16i32o = 247
dnnl_OIhw16i48o = 760
dnnl_OIhw16i64o = 248
dnnl_OIhw16o16i = 75
dnnl_Oihw16o = 73
dnnl_OIhw4i8o4i = 698
dnnl_OIhw4i16o4i = 85
dnnl_OIhw4i24o4i = 699
dnnl_OIhw4i32o4i = 249
dnnl_OIhw4i64o4i = 250
dnnl_OIhw16i16o4i = 86
dnnl_OIhw16i16o2i = 87
dnnl_OIhw16o16i2o = 274
dnnl_OIhw4i4o = 88
dnnl_OIhw4o4i = 89
dnnl_Oihw4o = 82
dnnl_OIhw8i8o2i = 708
dnnl_OIhw8i16o2i = 104
dnnl_OIhw8i32o2i = 251
dnnl_OIhw8i24o2i = 704
dnnl_OIhw8i64o2i = 252
dnnl_OIhw8i8o = 107
dnnl_OIhw8o16i2o = 98
dnnl_OIhw2i8o4i = 99
dnnl_IOhw8o16i2o = 106
dnnl_OIhw8o8i = 100
dnnl_OIhw8o4i = 101
dnnl_Owhi16o = 221
dnnl_OIhw8i32o = 683
dnnl_OIhw8i24o = 687
dnnl_OIhw8i16o = 691
dnnl_Odhwi16o = 217
dnnl_OdhwI16o2i = 218
dnnl_OdhwI16o4i = 273
dnnl_Idhwo8i = 726
dnnl_IdhwO8i2o = 727
dnnl_IdhwO8i4o = 748
dnnl_Idhwo16i = 630
dnnl_IdhwO16i2o = 631
dnnl_IdhwO16i4o = 632
dnnl_Idhwo24i = 738
dnnl_IdhwO24i2o = 739
dnnl_IdhwO24i4o = 754
dnnl_Odhwi4o = 219
dnnl_Odhwi8o = 220
dnnl_OdhwI8o2i = 677
dnnl_OdhwI8o4i = 718
dnnl_Odwhi16o = 517
dnnl_OIdhw16i16o = 122
dnnl_OIdhw16i32o = 257
dnnl_OIdhw16i48o = 761
dnnl_OIdhw16i64o = 258
dnnl_OIdhw16o16i = 116
dnnl_Oidhw16o = 114
dnnl_OIdhw4i4o = 129
dnnl_OIdhw4o4i = 130
dnnl_Oidhw4o = 126
dnnl_OIdhw8i8o2i = 709
dnnl_OIdhw8i16o2i = 143
dnnl_OIdhw8i32o2i = 259
dnnl_OIdhw8i24o2i = 705
dnnl_OIdhw8i64o2i = 260
dnnl_OIdhw8i8o = 147
dnnl_OIdhw8o16i2o = 111
dnnl_IOdhw8o16i2o = 117
dnnl_OIdhw4i8o4i = 700
dnnl_OIdhw4i16o4i = 119
dnnl_OIdhw4i24o4i = 701
dnnl_OIdhw4i32o4i = 253
dnnl_OIdhw4i64o4i = 254
dnnl_OIdhw16i16o4i = 255
dnnl_OIdhw16i16o2i = 256
dnnl_OIdhw2i8o4i = 120
dnnl_OIdhw8o8i = 139
dnnl_OIdhw8o4i = 140
dnnl_IOdhw16i16o = 141
dnnl_OIdhw4o8i8o4i = 153
dnnl_IOdhw16o16i = 229
dnnl_OIdhw16o16i2o = 515
dnnl_OIdhw8i32o = 684
dnnl_OIdhw8i24o = 688
dnnl_OIdhw8i16o = 692
dnnl_Goiw16g = 73
dnnl_Goiw8g = 74
dnnl_Goiw4g = 82
dnnl_gIOw16o16i = 207
dnnl_gIOw16i16o = 208
dnnl_gOIw16i16o = 81
dnnl_gOIw16o16i = 80
dnnl_gOiw16o = 78
dnnl_gOIw4i16o4i = 92
dnnl_gOIw2i8o4i = 93
dnnl_gOIw16i16o4i = 94
dnnl_gOIw16i16o2i = 95
dnnl_gOIw16o16i2o = 276
dnnl_gOIw4i4o = 96
dnnl_gOIw4o4i = 97
dnnl_gOiw4o = 84
dnnl_gOIw8i16o2i = 110
dnnl_gOIw8i8o = 113
dnnl_gOIw8o16i2o = 105
dnnl_gIOw8o16i2o = 112
dnnl_gOIw8o8i = 108
dnnl_gOIw8o4i = 109
dnnl_gOwi16o = 183
dnnl_gOwI16o2i = 184
dnnl_gOwI16o4i = 185
dnnl_gIwo8i = 728
dnnl_gIwO8i2o = 729
dnnl_gIwO8i4o = 749
dnnl_gIwo16i = 633
dnnl_gIwO16i2o = 634
dnnl_gIwO16i4o = 635
dnnl_gIwo24i = 740
dnnl_gIwO24i2o = 741
dnnl_gIwO24i4o = 755
dnnl_gOwi4o = 186
dnnl_gOwi8o = 187
dnnl_gOwI8o2i = 678
dnnl_gOwI8o4i = 719
dnnl_Goiw32g = 76
dnnl_gOIw2i4o2i = 90
dnnl_gOIw2o4i2o = 118
dnnl_gOIw4i8o2i = 103
dnnl_gOIw4o8i2o = 91
dnnl_goIw4i = 533
dnnl_goIw32i = 378
dnnl_gIOhw16i16o = 210
dnnl_gIOhw16o16i = 209
dnnl_gOhwi16o = 188
dnnl_gOhwI16o2i = 189
dnnl_gOhwI16o4i = 190
dnnl_gIhwo8i = 730
dnnl_gIhwO8i2o = 731
dnnl_gIhwO8i4o = 750
dnnl_gIhwo16i = 636
dnnl_gIhwO16i2o = 637
dnnl_gIhwO16i4o = 638
dnnl_gIhwo24i = 742
dnnl_gIhwO24i2o = 743
dnnl_gIhwO24i4o = 756
dnnl_gOhwi32o = 191
dnnl_gOhwi24o = 664
dnnl_gOhwI24o2i = 673
dnnl_gOhwI24o4i = 714
dnnl_gOhwi4o = 192
dnnl_gOhwi8o = 193
dnnl_gOhwI8o2i = 679
dnnl_gOhwI8o4i = 720
dnnl_Goihw16g = 114
dnnl_gOIhw16i16o = 124
dnnl_gOIhw16o16i = 123
dnnl_gOihw16o = 121
dnnl_gOIhw2i8o4i = 125
dnnl_gOIhw4i16o4i = 134
dnnl_gOIhw16i16o4i = 135
dnnl_gOIhw16i16o2i = 136
dnnl_gOIhw16o16i2o = 277
dnnl_gOIhw4i4o = 137
dnnl_gOIhw4o4i = 131
dnnl_gOihw4o = 128
dnnl_Goihw8g = 138
dnnl_Goihw4g = 126
dnnl_gOIhw8i16o2i = 161
dnnl_gOIhw8i8o = 162
dnnl_gOIhw8o16i2o = 144
dnnl_gIOhw8o16i2o = 146
dnnl_gOIhw8o8i = 149
dnnl_gOIhw8o4i = 150
dnnl_Goihw32g = 115
dnnl_gOwhi16o = 201
dnnl_goIhw4i = 534
dnnl_goIhw32i = 536
dnnl_OIw4o8i8o4i = 151
dnnl_OIhw4o8i8o4i = 152
dnnl_IOw4i8o8i4o = 154
dnnl_IOhw4i8o8i4o = 155
dnnl_IOdhw4i8o8i4o = 156
dnnl_OIhw2o8i8o2i = 157
dnnl_gOIw4o8i8o4i = 158
dnnl_gOIhw4o8i8o4i = 159
dnnl_gOIdhw4o8i8o4i = 179
dnnl_gIOw4i8o8i4o = 226
dnnl_gIOhw4i8o8i4o = 227
dnnl_gIOdhw4i8o8i4o = 228
dnnl_gOIhw2o8i8o2i = 160
dnnl_gOIhw2i4o2i = 132
dnnl_gOIhw2o4i2o = 163
dnnl_gOIhw4i8o2i = 145
dnnl_gOIhw4o8i2o = 133
dnnl_gIOdhw16i16o = 196
dnnl_gIOdhw16o16i = 230
dnnl_gOdhwi16o = 194
dnnl_gOdhwI16o2i = 195
dnnl_gOdhwI16o4i = 272
dnnl_gIdhwo8i = 732
dnnl_gIdhwO8i2o = 733
dnnl_gIdhwO8i4o = 751
dnnl_gIdhwo16i = 639
dnnl_gIdhwO16i2o = 640
dnnl_gIdhwO16i4o = 641
dnnl_gIdhwo24i = 744
dnnl_gIdhwO24i2o = 745
dnnl_gIdhwO24i4o = 757
dnnl_gOdhwi4o = 197
dnnl_gOdhwi8o = 198
dnnl_gOdhwI8o2i = 680
dnnl_gOdhwI8o4i = 721
dnnl_gOdwhi16o = 518
dnnl_gOIdhw16i16o = 166
dnnl_gOIdhw4i16o4i = 167
dnnl_gOIdhw16i16o4i = 261
dnnl_gOIdhw2i8o4i = 168
dnnl_gOIdhw16i16o2i = 262
dnnl_gOIdhw16o16i = 165
dnnl_gOIdhw16o16i2o = 516
dnnl_gOidhw16o = 164
dnnl_gOIdhw4i4o = 172
dnnl_gOIdhw4o4i = 173
dnnl_gOidhw4o = 171
dnnl_gOIdhw8i16o2i = 178
dnnl_gOIdhw8i8o = 182
dnnl_gOIdhw8o16i2o = 180
dnnl_gIOdhw8o16i2o = 181
dnnl_gOIdhw8o8i = 176
dnnl_gOIdhw8o4i = 177
dnnl_Goidhw16g = 199
dnnl_Goidhw32g = 200
dnnl_gOIdhw2i4o2i = 174
dnnl_gOIdhw4i8o2i = 169
dnnl_gOIdhw2o4i2o = 170
dnnl_gOIdhw4o8i2o = 175
dnnl_goIdhw4i = 535
dnnl_goIdhw32i = 537
dnnl_Owi24o = 660
dnnl_OwI24o2i = 669
dnnl_OwI24o4i = 710
dnnl_Owi32o = 278
dnnl_OwI32o2i = 279
dnnl_OwI32o4i = 280
dnnl_Owi48o = 281
dnnl_OwI48o2i = 282
dnnl_OwI48o4i = 283
dnnl_Owi64o = 284
dnnl_OwI64o2i = 285
dnnl_OwI64o4i = 286
dnnl_Iwo32i = 570
dnnl_IwO32i2o = 571
dnnl_IwO32i4o = 572
dnnl_Iwo48i = 573
dnnl_IwO48i2o = 574
dnnl_IwO48i4o = 575
dnnl_Iwo64i = 576
dnnl_IwO64i2o = 577
dnnl_IwO64i4o = 578
dnnl_wIo2i = 287
dnnl_wIo4i = 288
dnnl_gOwi24o = 663
dnnl_gOwI24o2i = 672
dnnl_gOwI24o4i = 713
dnnl_gOwi32o = 289
dnnl_gOwI32o2i = 290
dnnl_gOwI32o4i = 291
dnnl_gOwi48o = 292
dnnl_gOwI48o2i = 293
dnnl_gOwI48o4i = 294
dnnl_gOwi64o = 295
dnnl_gOwI64o2i = 296
dnnl_gOwI64o4i = 297
dnnl_gIwo32i = 579
dnnl_gIwO32i2o = 580
dnnl_gIwO32i4o = 581
dnnl_gIwo48i = 582
dnnl_gIwO48i2o = 583
dnnl_gIwO48i4o = 584
dnnl_gIwo64i = 585
dnnl_gIwO64i2o = 586
dnnl_gIwO64i4o = 587
dnnl_gwio = 24
dnnl_gwIo2i = 298
dnnl_gwIo4i = 299
dnnl_OhwI24o = 661
dnnl_OhwI24o2i = 670
dnnl_OhwI24o4i = 711
dnnl_OhwI32o = 214
dnnl_OhwI32o2i = 300
dnnl_OhwI32o4i = 301
dnnl_Ohwi48o = 302
dnnl_OhwI48o2i = 303
dnnl_OhwI48o4i = 304
dnnl_Ohwi64o = 305
dnnl_OhwI64o2i = 306
dnnl_OhwI64o4i = 307
dnnl_Ihwo32i = 642
dnnl_IhwO32i2o = 643
dnnl_IhwO32i4o = 644
dnnl_Ihwo48i = 645
dnnl_IhwO48i2o = 646
dnnl_IhwO48i4o = 647
dnnl_Ihwo64i = 648
dnnl_IhwO64i2o = 649
dnnl_IhwO64i4o = 650
dnnl_hwIo2i = 308
dnnl_hwIo4i = 309
dnnl_gOhwI24o = 664
dnnl_gOhwI32o = 191
dnnl_gOhwI32o2i = 310
dnnl_gOhwI32o4i = 311
dnnl_gOhwi48o = 312
dnnl_gOhwI48o2i = 313
dnnl_gOhwI48o4i = 314
dnnl_gOhwi64o = 315
dnnl_gOhwI64o2i = 316
dnnl_gOhwI64o4i = 317
dnnl_gIhwo32i = 651
dnnl_gIhwO32i2o = 652
dnnl_gIhwO32i4o = 653
dnnl_gIhwo48i = 654
dnnl_gIhwO48i2o = 655
dnnl_gIhwO48i4o = 656
dnnl_gIhwo64i = 657
dnnl_gIhwO64i2o = 658
dnnl_gIhwO64i4o = 659
dnnl_ghwio = 34
dnnl_ghwIo2i = 318
dnnl_ghwIo4i = 319
dnnl_Odhwi24o = 662
dnnl_OdhwI24o2i = 671
dnnl_OdhwI24o4i = 712
dnnl_Odhwi32o = 320
dnnl_OdhwI32o2i = 321
dnnl_OdhwI32o4i = 322
dnnl_Odhwi48o = 323
dnnl_OdhwI48o2i = 324
dnnl_OdhwI48o4i = 325
dnnl_Odhwi64o = 326
dnnl_OdhwI64o2i = 327
dnnl_OdhwI64o4i = 328
dnnl_Idhwo32i = 561
dnnl_IdhwO32i2o = 562
dnnl_IdhwO32i4o = 563
dnnl_Idhwo48i = 564
dnnl_IdhwO48i2o = 565
dnnl_IdhwO48i4o = 566
dnnl_Idhwo64i = 567
dnnl_IdhwO64i2o = 568
dnnl_IdhwO64i4o = 569
dnnl_dhwIo2i = 329
dnnl_dhwIo4i = 330
dnnl_gOdhwi24o = 665
dnnl_gOdhwI24o2i = 674
dnnl_gOdhwI24o4i = 715
dnnl_gOdhwi32o = 331
dnnl_gOdhwI32o2i = 332
dnnl_gOdhwI32o4i = 333
dnnl_gOdhwi48o = 334
dnnl_gOdhwI48o2i = 335
dnnl_gOdhwI48o4i = 336
dnnl_gOdhwi64o = 337
dnnl_gOdhwI64o2i = 338
dnnl_gOdhwI64o4i = 339
dnnl_gIdhwo32i = 552
dnnl_gIdhwO32i2o = 553
dnnl_gIdhwO32i4o = 554
dnnl_gIdhwo48i = 555
dnnl_gIdhwO48i2o = 556
dnnl_gIdhwO48i4o = 557
dnnl_gIdhwo64i = 558
dnnl_gIdhwO64i2o = 559
dnnl_gIdhwO64i4o = 560
dnnl_gdhwio = 44
dnnl_gdhwIo2i = 340
dnnl_gdhwIo4i = 341
dnnl_OI16i32o4i = 342
dnnl_OI16i48o4i = 343
dnnl_OI16i64o4i = 344
dnnl_OI16i16o2i = 345
dnnl_OI16i32o2i = 346
dnnl_OI16i48o2i = 347
dnnl_OI16i64o2i = 348
dnnl_OIw16i32o4i = 349
dnnl_OIw16i48o4i = 350
dnnl_OIw16i64o4i = 351
dnnl_OIw16i32o2i = 352
dnnl_OIw16i48o2i = 353
dnnl_OIw16i64o2i = 354
dnnl_OIhw16i32o4i = 355
dnnl_OIhw16i48o4i = 356
dnnl_OIhw16i64o4i = 357
dnnl_OIhw16i32o2i = 358
dnnl_OIhw16i48o2i = 359
dnnl_OIhw16i64o2i = 360
dnnl_OIdhw16i32o4i = 361
dnnl_OIdhw16i48o4i = 362
dnnl_OIdhw16i64o4i = 363
dnnl_OIdhw16i32o2i = 364
dnnl_OIdhw16i48o2i = 365
dnnl_OIdhw16i64o2i = 366
dnnl_OwI16i16o2i = 393
dnnl_OwI16i16o4i = 394
dnnl_OhwI16i16o2i = 395
dnnl_OhwI16i16o4i = 396
dnnl_OdhwI16i16o2i = 397
dnnl_OdhwI16i16o4i = 399
dnnl_IwO16o16i2o = 588
dnnl_IwO16o16i4o = 589
dnnl_IhwO16o16i2o = 590
dnnl_IhwO16o16i4o = 591
dnnl_IdhwO16o16i2o = 592
dnnl_IdhwO16o16i4o = 593
dnnl_gOwI16i16o2i = 406
dnnl_gOwI16i16o4i = 407
dnnl_gOhwI16i16o2i = 390
dnnl_gOhwI16i16o4i = 391
dnnl_gOdhwI16i16o2i = 392
dnnl_gOdhwI16i16o4i = 398
dnnl_gIwO16o16i2o = 594
dnnl_gIwO16o16i4o = 595
dnnl_gIhwO16o16i2o = 596
dnnl_gIhwO16o16i4o = 597
dnnl_gIdhwO16o16i2o = 598
dnnl_gIdhwO16o16i4o = 599
dnnl_OwI16i32o2i = 400
dnnl_OwI16i32o4i = 401
dnnl_OwI16i48o2i = 402
dnnl_OwI16i48o4i = 403
dnnl_OwI16i64o2i = 404
dnnl_OwI16i64o4i = 405
dnnl_IwO16o32i2o = 600
dnnl_IwO16o32i4o = 601
dnnl_IwO16o48i2o = 602
dnnl_IwO16o48i4o = 603
dnnl_IwO16o64i2o = 604
dnnl_IwO16o64i4o = 605
dnnl_gOwI16i32o2i = 408
dnnl_gOwI16i32o4i = 409
dnnl_gOwI16i48o2i = 410
dnnl_gOwI16i48o4i = 411
dnnl_gOwI16i64o2i = 412
dnnl_gOwI16i64o4i = 413
dnnl_gIwO16o32i2o = 606
dnnl_gIwO16o32i4o = 607
dnnl_gIwO16o48i2o = 608
dnnl_gIwO16o48i4o = 609
dnnl_gIwO16o64i2o = 610
dnnl_gIwO16o64i4o = 611
dnnl_OhwI16i32o2i = 414
dnnl_OhwI16i32o4i = 415
dnnl_OhwI16i48o2i = 416
dnnl_OhwI16i48o4i = 417
dnnl_OhwI16i64o2i = 418
dnnl_OhwI16i64o4i = 419
dnnl_IhwO16o32i2o = 612
dnnl_IhwO16o32i4o = 613
dnnl_IhwO16o48i2o = 614
dnnl_IhwO16o48i4o = 615
dnnl_IhwO16o64i2o = 616
dnnl_IhwO16o64i4o = 617
dnnl_gOhwI16i32o2i = 420
dnnl_gOhwI16i32o4i = 421
dnnl_gOhwI16i48o2i = 422
dnnl_gOhwI16i48o4i = 423
dnnl_gOhwI16i64o2i = 424
dnnl_gOhwI16i64o4i = 425
dnnl_gIhwO16o32i2o = 618
dnnl_gIhwO16o32i4o = 619
dnnl_gIhwO16o48i2o = 620
dnnl_gIhwO16o48i4o = 621
dnnl_gIhwO16o64i2o = 622
dnnl_gIhwO16o64i4o = 623
dnnl_OdhwI16i32o2i = 426
dnnl_OdhwI16i32o4i = 427
dnnl_OdhwI16i48o2i = 428
dnnl_OdhwI16i48o4i = 429
dnnl_OdhwI16i64o2i = 430
dnnl_OdhwI16i64o4i = 431
dnnl_IdhwO16o32i2o = 546
dnnl_IdhwO16o32i4o = 547
dnnl_IdhwO16o48i2o = 548
dnnl_IdhwO16o48i4o = 549
dnnl_IdhwO16o64i2o = 550
dnnl_IdhwO16o64i4o = 551
dnnl_gOdhwI16i32o2i = 432
dnnl_gOdhwI16i32o4i = 433
dnnl_gOdhwI16i48o2i = 434
dnnl_gOdhwI16i48o4i = 435
dnnl_gOdhwI16i64o2i = 436
dnnl_gOdhwI16i64o4i = 437
dnnl_gIdhwO16o32i2o = 540
dnnl_gIdhwO16o32i4o = 541
dnnl_gIdhwO16o48i2o = 542
dnnl_gIdhwO16o48i4o = 543
dnnl_gIdhwO16o64i2o = 544
dnnl_gIdhwO16o64i4o = 545
dnnl_hwioG16g = 438
dnnl_hwioG8g = 539
dnnl_NCdhw40n16c = 444
dnnl_NCw40n16c = 372
dnnl_NChw40n16c = 376
dnnl_NCw40n32c = 373
dnnl_NChw40n32c = 377
dnnl_NCdhw40n32c = 445
dnnl_OIdhw4o8i8o2i = 447
dnnl_OIhw4o8i8o2i = 448
dnnl_OIw4o8i8o2i = 449
dnnl_gOIdhw4o8i8o2i = 450
dnnl_gOIhw4o8i8o2i = 451
dnnl_gOIw4o8i8o2i = 452
dnnl_IOdhw4i8o8i2o = 453
dnnl_IOhw4i8o8i2o = 454
dnnl_IOw4i8o8i2o = 455
dnnl_gIOdhw4i8o8i2o = 456
dnnl_gIOhw4i8o8i2o = 457
dnnl_gIOw4i8o8i2o = 458
dnnl_NCw2c32n8c = 474
dnnl_NChw2c32n8c = 478
dnnl_NCdhw2c32n8c = 483
dnnl_OIw2i8o16i4o = 469
dnnl_OIhw2i8o16i4o = 470
dnnl_OIdhw2i8o16i4o = 471
dnnl_OIw2o8i16o4i = 472
dnnl_OIw2o8i16o2i = 473
dnnl_IOw2i8o16i4o = 490
dnnl_IOw2i8o16i2o = 493
dnnl_OIhw2o8i16o4i = 475
dnnl_OIhw2o8i16o2i = 476
dnnl_IOhw2i8o16i4o = 489
dnnl_IOhw2i8o16i2o = 492
dnnl_OIdhw2o8i16o4i = 480
dnnl_OIdhw2o8i16o2i = 481
dnnl_IOdhw2i8o16i4o = 488
dnnl_IOdhw2i8o16i2o = 491
dnnl_gOIw2o8i16o2i = 485
dnnl_gIOw2i8o16i2o = 477
dnnl_gIOhw2i8o16i2o = 494
dnnl_gIOdhw2i8o16i2o = 495
dnnl_gOIhw2o8i16o2i = 486
dnnl_gOIdhw2o8i16o2i = 487
dnnl_gOIw2o8i16o4i = 497
dnnl_gOIhw2o8i16o4i = 498

# dnnl_prop_kind_t
dnnl_prop_kind_undef = 0
dnnl_forward_training = 64
dnnl_forward_inference = 96
dnnl_forward = 64
dnnl_backward = 128
dnnl_backward_data = 160
dnnl_backward_weights = 192
dnnl_backward_bias = 193

# dnnl_primitive_kind_t
dnnl_undefined_primitive = 0
dnnl_reorder = 1
dnnl_shuffle = 2
dnnl_concat = 3
dnnl_sum = 4
dnnl_convolution = 5
dnnl_deconvolution = 6
dnnl_eltwise = 7
dnnl_lrn = 8
dnnl_batch_normalization = 9
dnnl_inner_product = 10
dnnl_rnn = 11
dnnl_gemm = 12
dnnl_binary = 13
dnnl_matmul = 14
dnnl_resampling = 15
dnnl_pooling = 16
dnnl_reduction = 17
dnnl_prelu = 18
dnnl_softmax = 19
dnnl_layer_normalization = 20
dnnl_primitive_kind_max = 32767

# dnnl_alg_kind_t
dnnl_alg_kind_undef = 0
dnnl_convolution_direct = 1
dnnl_convolution_winograd = 2
dnnl_convolution_auto = 3
dnnl_deconvolution_direct = 10
dnnl_deconvolution_winograd = 11
dnnl_eltwise_relu = 32
dnnl_eltwise_tanh = 33
dnnl_eltwise_elu = 34
dnnl_eltwise_square = 35
dnnl_eltwise_abs = 36
dnnl_eltwise_sqrt = 37
dnnl_eltwise_linear = 38
dnnl_eltwise_soft_relu = 39
dnnl_eltwise_hardsigmoid = 40
dnnl_eltwise_logistic = 41
dnnl_eltwise_exp = 42
dnnl_eltwise_gelu_tanh = 43
dnnl_eltwise_swish = 44
dnnl_eltwise_log = 45
dnnl_eltwise_clip = 46
dnnl_eltwise_clip_v2 = 47
dnnl_eltwise_pow = 48
dnnl_eltwise_gelu_erf = 49
dnnl_eltwise_round = 50
dnnl_eltwise_mish = 51
dnnl_eltwise_hardswish = 52
dnnl_eltwise_relu_use_dst_for_bwd = 256
dnnl_eltwise_tanh_use_dst_for_bwd = 257
dnnl_eltwise_elu_use_dst_for_bwd = 258
dnnl_eltwise_sqrt_use_dst_for_bwd = 259
dnnl_eltwise_logistic_use_dst_for_bwd = 260
dnnl_eltwise_exp_use_dst_for_bwd = 261
dnnl_eltwise_clip_v2_use_dst_for_bwd = 262
dnnl_pooling_max = 511
dnnl_pooling_avg_include_padding = 767
dnnl_pooling_avg_exclude_padding = 1023
dnnl_lrn_across_channels = 2815
dnnl_lrn_within_channel = 3071
dnnl_vanilla_rnn = 8191
dnnl_vanilla_lstm = 12287
dnnl_vanilla_gru = 16383
dnnl_lbr_gru = 20479
dnnl_vanilla_augru = 24575
dnnl_lbr_augru = 28671
dnnl_binary_add = 131056
dnnl_binary_mul = 131057
dnnl_binary_max = 131058
dnnl_binary_min = 131059
dnnl_binary_div = 131060
dnnl_binary_sub = 131061
dnnl_binary_ge = 131062
dnnl_binary_gt = 131063
dnnl_binary_le = 131064
dnnl_binary_lt = 131065
dnnl_binary_eq = 131066
dnnl_binary_ne = 131067
dnnl_resampling_nearest = 196592
dnnl_resampling_linear = 196593
dnnl_reduction_max = 196594
dnnl_reduction_min = 196595
dnnl_reduction_sum = 196596
dnnl_reduction_mul = 196597
dnnl_reduction_mean = 196598
dnnl_reduction_norm_lp_max = 196599
dnnl_reduction_norm_lp_sum = 196600
dnnl_reduction_norm_lp_power_p_max = 196601
dnnl_reduction_norm_lp_power_p_sum = 196602
dnnl_softmax_accurate = 196608
dnnl_softmax_log = 196609

# dnnl_normalization_flags_t
dnnl_normalization_flags_none = 0
dnnl_use_global_stats = 1
dnnl_use_scale = 2
dnnl_use_shift = 4
dnnl_fuse_norm_relu = 8
dnnl_fuse_norm_add_relu = 16

# dnnl_rnn_flags_t
dnnl_rnn_flags_undef = 0
dnnl_rnn_flags_diff_weights_overwrite = 1

# dnnl_rnn_direction_t
dnnl_rnn_direction_undef = 0
dnnl_unidirectional_left2right = 1
dnnl_unidirectional_right2left = 2
dnnl_bidirectional_concat = 3
dnnl_bidirectional_sum = 4

# dnnl_scratchpad_mode_t
dnnl_scratchpad_mode_library = 0
dnnl_scratchpad_mode_user = 1

# dnnl_query_t
dnnl_query_undef = 0
dnnl_query_engine = 1
dnnl_query_primitive_kind = 2
dnnl_query_num_of_inputs_s32 = 3
dnnl_query_num_of_outputs_s32 = 4
dnnl_query_time_estimate_f64 = 5
dnnl_query_memory_consumption_s64 = 6
dnnl_query_scratchpad_engine = 7
dnnl_query_impl_info_str = 8
dnnl_query_reorder_src_engine = 9
dnnl_query_reorder_dst_engine = 10
dnnl_query_prop_kind = 11
dnnl_query_cache_blob_id_size_s64 = 12
dnnl_query_cache_blob_id = 13
dnnl_query_strides = 14
dnnl_query_dilations = 15
dnnl_query_padding_l = 16
dnnl_query_padding_r = 17
dnnl_query_epsilon_f32 = 18
dnnl_query_flags = 19
dnnl_query_alg_kind = 20
dnnl_query_alpha_f32 = 21
dnnl_query_beta_f32 = 22
dnnl_query_axis_s32 = 23
dnnl_query_local_size_s64 = 24
dnnl_query_k_f32 = 25
dnnl_query_p_f32 = 26
dnnl_query_factors = 27
dnnl_query_cell_kind = 28
dnnl_query_direction = 29
dnnl_query_activation_kind = 30
dnnl_query_kernel = 31
dnnl_query_group_size_s64 = 32
dnnl_query_some_md = 128
dnnl_query_src_md = 129
dnnl_query_diff_src_md = 130
dnnl_query_weights_md = 131
dnnl_query_diff_weights_md = 132
dnnl_query_dst_md = 133
dnnl_query_diff_dst_md = 134
dnnl_query_workspace_md = 135
dnnl_query_scratchpad_md = 136
dnnl_query_exec_arg_md = 255
dnnl_query_ndims_s32 = 256
dnnl_query_dims = 257
dnnl_query_data_type = 258
dnnl_query_submemory_offset_s64 = 259
dnnl_query_padded_dims = 260
dnnl_query_padded_offsets = 261
dnnl_query_format_kind = 262
dnnl_query_inner_nblks_s32 = 263
dnnl_query_inner_blks = 264
dnnl_query_inner_idxs = 265
dnnl_query_sparse_encoding = 266
dnnl_query_nnz_s64 = 267
dnnl_query_num_handles_s32 = 268
dnnl_query_max = 32767

# dnnl_cpu_isa_t
dnnl_cpu_isa_default = 0
dnnl_cpu_isa_sse41 = 1
dnnl_cpu_isa_avx = 3
dnnl_cpu_isa_avx2 = 7
dnnl_cpu_isa_avx2_vnni = 15
dnnl_cpu_isa_avx2_vnni_2 = 31
dnnl_cpu_isa_avx512_core = 39
dnnl_cpu_isa_avx512_core_vnni = 103
dnnl_cpu_isa_avx512_core_bf16 = 231
dnnl_cpu_isa_avx512_core_fp16 = 495
dnnl_cpu_isa_avx512_core_amx = 4079
dnnl_cpu_isa_avx512_core_amx_fp16 = 8175

# dnnl_cpu_isa_hints_t
dnnl_cpu_isa_no_hints = 0
dnnl_cpu_isa_prefer_ymm = 1

# ---- macros: pointers as integers (DNNL_MEMORY_NONE = 0 is NULL), float macros as
# their IEEE-754 bits (*_BITS: a NaN payload does not survive a Python float)

# DNNL_OTHER
DNNL_MAX_NDIMS = 12
DNNL_RUNTIME_DIM_VAL = -9223372036854775808
DNNL_RUNTIME_SIZE_VAL = 9223372036854775808
DNNL_RUNTIME_F32_VAL_BITS = 0x7fc000d0
DNNL_RUNTIME_S32_VAL = -2147483648
DNNL_MEMORY_NONE = 0
DNNL_MEMORY_ALLOCATE = 18446744073709551615

# DNNL_ARG
DNNL_ARG_SRC_0 = 1
DNNL_ARG_SRC = 1
DNNL_ARG_SRC_LAYER = 1
DNNL_ARG_FROM = 1
DNNL_ARG_SRC_1 = 2
DNNL_ARG_SRC_ITER = 2
DNNL_ARG_SRC_2 = 3
DNNL_ARG_SRC_ITER_C = 3
DNNL_ARG_SRC_3 = 4
DNNL_ARG_AUGRU_ATTENTION = 4
DNNL_ARG_DST_0 = 17
DNNL_ARG_DST = 17
DNNL_ARG_TO = 17
DNNL_ARG_DST_LAYER = 17
DNNL_ARG_DST_1 = 18
DNNL_ARG_DST_ITER = 18
DNNL_ARG_DST_2 = 19
DNNL_ARG_DST_ITER_C = 19
DNNL_ARG_WEIGHTS_0 = 33
DNNL_ARG_WEIGHTS = 33
DNNL_ARG_WEIGHTS_LAYER = 33
DNNL_ARG_WEIGHTS_1 = 34
DNNL_ARG_WEIGHTS_ITER = 34
DNNL_ARG_WEIGHTS_2 = 35
DNNL_ARG_WEIGHTS_PEEPHOLE = 35
DNNL_ARG_WEIGHTS_3 = 36
DNNL_ARG_WEIGHTS_PROJECTION = 36
DNNL_ARG_BIAS = 41
DNNL_ARG_MEAN = 49
DNNL_ARG_VARIANCE = 50
DNNL_ARG_SCALE = 51
DNNL_ARG_SHIFT = 52
DNNL_ARG_WORKSPACE = 64
DNNL_ARG_SCRATCHPAD = 80
DNNL_ARG_DIFF_SRC_0 = 129
DNNL_ARG_DIFF_SRC = 129
DNNL_ARG_DIFF_SRC_LAYER = 129
DNNL_ARG_DIFF_SRC_1 = 130
DNNL_ARG_DIFF_SRC_ITER = 130
DNNL_ARG_DIFF_SRC_2 = 131
DNNL_ARG_DIFF_SRC_ITER_C = 131
DNNL_ARG_DIFF_SRC_3 = 132
DNNL_ARG_DIFF_AUGRU_ATTENTION = 132
DNNL_ARG_DIFF_DST_0 = 145
DNNL_ARG_DIFF_DST = 145
DNNL_ARG_DIFF_DST_LAYER = 145
DNNL_ARG_DIFF_DST_1 = 146
DNNL_ARG_DIFF_DST_ITER = 146
DNNL_ARG_DIFF_DST_2 = 147
DNNL_ARG_DIFF_DST_ITER_C = 147
DNNL_ARG_DIFF_WEIGHTS_0 = 161
DNNL_ARG_DIFF_WEIGHTS = 161
DNNL_ARG_DIFF_WEIGHTS_LAYER = 161
DNNL_ARG_DIFF_WEIGHTS_1 = 162
DNNL_ARG_DIFF_WEIGHTS_ITER = 162
DNNL_ARG_DIFF_WEIGHTS_2 = 163
DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE = 163
DNNL_ARG_DIFF_WEIGHTS_3 = 164
DNNL_ARG_DIFF_WEIGHTS_PROJECTION = 164
DNNL_ARG_DIFF_BIAS = 169
DNNL_ARG_DIFF_SCALE = 255
DNNL_ARG_DIFF_SHIFT = 256
DNNL_ARG_ATTR_OUTPUT_SCALES = 513
DNNL_ARG_MULTIPLE_SRC = 1024
DNNL_ARG_MULTIPLE_DST = 2048
DNNL_ARG_ATTR_SCALES = 4096
DNNL_ARG_ATTR_ZERO_POINTS = 8192
DNNL_ARG_ATTR_POST_OP_DW = 16384
DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE = 32768

# DNNL_JIT_PROFILE
DNNL_JIT_PROFILE_NONE = 0
DNNL_JIT_PROFILE_VTUNE = 1
DNNL_JIT_PROFILE_LINUX_PERFMAP = 2
DNNL_JIT_PROFILE_LINUX_JITDUMP = 4
DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC = 8
DNNL_JIT_PROFILE_LINUX_PERF = 6

# DNNL_RUNTIME
DNNL_RUNTIME_NONE = 0
DNNL_RUNTIME_SEQ = 1
DNNL_RUNTIME_OMP = 2
DNNL_RUNTIME_TBB = 4
DNNL_RUNTIME_THREADPOOL = 8
DNNL_RUNTIME_OCL = 256
DNNL_RUNTIME_SYCL = 512
DNNL_RUNTIME_DPCPP = 512

ENUMS = {
    "dnnl_status_t": {
        "dnnl_success": dnnl_success,
        "dnnl_out_of_memory": dnnl_out_of_memory,
        "dnnl_invalid_arguments": dnnl_invalid_arguments,
        "dnnl_unimplemented": dnnl_unimplemented,
        "dnnl_last_impl_reached": dnnl_last_impl_reached,
        "dnnl_runtime_error": dnnl_runtime_error,
        "dnnl_not_required": dnnl_not_required,
        "dnnl_invalid_graph": dnnl_invalid_graph,
        "dnnl_invalid_graph_op": dnnl_invalid_graph_op,
        "dnnl_invalid_shape": dnnl_invalid_shape,
        "dnnl_invalid_data_type": dnnl_invalid_data_type,
    },
    "dnnl_data_type_t": {
        "dnnl_data_type_undef": dnnl_data_type_undef,
        "dnnl_f16": dnnl_f16,
        "dnnl_bf16": dnnl_bf16,
        "dnnl_f32": dnnl_f32,
        "dnnl_s32": dnnl_s32,
        "dnnl_s8": dnnl_s8,
        "dnnl_u8": dnnl_u8,
        "dnnl_f64": dnnl_f64,
        "dnnl_boolean": dnnl_boolean,
        "dnnl_data_type_max": dnnl_data_type_max,
    },
    "dnnl_fpmath_mode_t": {
        "dnnl_fpmath_mode_strict": dnnl_fpmath_mode_strict,
        "dnnl_fpmath_mode_bf16": dnnl_fpmath_mode_bf16,
        "dnnl_fpmath_mode_f16": dnnl_fpmath_mode_f16,
        "dnnl_fpmath_mode_any": dnnl_fpmath_mode_any,
        "dnnl_fpmath_mode_tf32": dnnl_fpmath_mode_tf32,
    },
    "dnnl_engine_kind_t": {
        "dnnl_any_engine": dnnl_any_engine,
        "dnnl_cpu": dnnl_cpu,
        "dnnl_gpu": dnnl_gpu,
    },
    "dnnl_stream_flags_t": {
        "dnnl_stream_in_order": dnnl_stream_in_order,
        "dnnl_stream_out_of_order": dnnl_stream_out_of_order,
        "dnnl_stream_default_flags": dnnl_stream_default_flags,
        "dnnl_stream_profiling": dnnl_stream_profiling,
    },
    "dnnl_format_kind_t": {
        "dnnl_format_kind_undef": dnnl_format_kind_undef,
        "dnnl_format_kind_any": dnnl_format_kind_any,
        "dnnl_blocked": dnnl_blocked,
        "dnnl_format_kind_opaque": dnnl_format_kind_opaque,
        "dnnl_format_kind_sparse": dnnl_format_kind_sparse,
        "dnnl_format_kind_max": dnnl_format_kind_max,
    },
    "dnnl_sparse_encoding_t": {
        "dnnl_sparse_encoding_undef": dnnl_sparse_encoding_undef,
        "dnnl_csr": dnnl_csr,
    },
    "dnnl_profiling_data_kind_t": {
        "dnnl_profiling_data_kind_undef": dnnl_profiling_data_kind_undef,
        "dnnl_profiling_data_kind_time": dnnl_profiling_data_kind_time,
    },
    "dnnl_format_tag_t": {
        "dnnl_format_tag_undef": dnnl_format_tag_undef,
        "dnnl_format_tag_any": dnnl_format_tag_any,
        "dnnl_a": dnnl_a,
        "dnnl_ab": dnnl_ab,
        "dnnl_abc": dnnl_abc,
        "dnnl_abcd": dnnl_abcd,
        "dnnl_abcde": dnnl_abcde,
        "dnnl_abcdef": dnnl_abcdef,
        "dnnl_abcdefg": dnnl_abcdefg,
        "dnnl_abcdefgh": dnnl_abcdefgh,
        "dnnl_abcdefghi": dnnl_abcdefghi,
        "dnnl_abcdefghij": dnnl_abcdefghij,
        "dnnl_abcdefghijk": dnnl_abcdefghijk,
        "dnnl_abcdefghijkl": dnnl_abcdefghijkl,
        "dnnl_ba": dnnl_ba,
        "dnnl_acb": dnnl_acb,
        "dnnl_bac": dnnl_bac,
        "dnnl_bca": dnnl_bca,
        "dnnl_cab": dnnl_cab,
        "dnnl_cba": dnnl_cba,
        "dnnl_abdc": dnnl_abdc,
        "dnnl_acbd": dnnl_acbd,
        "dnnl_acdb": dnnl_acdb,
        "dnnl_adbc": dnnl_adbc,
        "dnnl_adcb": dnnl_adcb,
        "dnnl_bacd": dnnl_bacd,
        "dnnl_bcda": dnnl_bcda,
        "dnnl_cdab": dnnl_cdab,
        "dnnl_cdba": dnnl_cdba,
        "dnnl_dcab": dnnl_dcab,
        "dnnl_abced": dnnl_abced,
        "dnnl_abdec": dnnl_abdec,
        "dnnl_acbde": dnnl_acbde,
        "dnnl_acdeb": dnnl_acdeb,
        "dnnl_adecb": dnnl_adecb,
        "dnnl_bacde": dnnl_bacde,
        "dnnl_bcdea": dnnl_bcdea,
        "dnnl_cdeab": dnnl_cdeab,
        "dnnl_cdeba": dnnl_cdeba,
        "dnnl_decab": dnnl_decab,
        "dnnl_abcdfe": dnnl_abcdfe,
        "dnnl_abdefc": dnnl_abdefc,
        "dnnl_abdfce": dnnl_abdfce,
        "dnnl_acbdef": dnnl_acbdef,
        "dnnl_adefcb": dnnl_adefcb,
        "dnnl_defcab": dnnl_defcab,
        "dnnl_abcdegf": dnnl_abcdegf,
        "dnnl_abcdefhg": dnnl_abcdefhg,
        "dnnl_abcdefgih": dnnl_abcdefgih,
        "dnnl_abcdefghji": dnnl_abcdefghji,
        "dnnl_abcdefghikj": dnnl_abcdefghikj,
        "dnnl_abcdefghijlk": dnnl_abcdefghijlk,
        "dnnl_Abc16a": dnnl_Abc16a,
        "dnnl_ABc16a16b": dnnl_ABc16a16b,
        "dnnl_ABc32a32b": dnnl_ABc32a32b,
        "dnnl_ABc4a4b": dnnl_ABc4a4b,
        "dnnl_aBc16b": dnnl_aBc16b,
        "dnnl_ABc16b16a": dnnl_ABc16b16a,
        "dnnl_Abc4a": dnnl_Abc4a,
        "dnnl_aBc32b": dnnl_aBc32b,
        "dnnl_aBc4b": dnnl_aBc4b,
        "dnnl_ABc4b16a4b": dnnl_ABc4b16a4b,
        "dnnl_ABc2b8a4b": dnnl_ABc2b8a4b,
        "dnnl_ABc16b16a4b": dnnl_ABc16b16a4b,
        "dnnl_ABc16b16a2b": dnnl_ABc16b16a2b,
        "dnnl_ABc4b4a": dnnl_ABc4b4a,
        "dnnl_ABc8a16b2a": dnnl_ABc8a16b2a,
        "dnnl_ABc8a8b": dnnl_ABc8a8b,
        "dnnl_ABc8a4b": dnnl_ABc8a4b,
        "dnnl_aBc8b": dnnl_aBc8b,
        "dnnl_ABc8b16a2b": dnnl_ABc8b16a2b,
        "dnnl_BAc8a16b2a": dnnl_BAc8a16b2a,
        "dnnl_ABc8b8a": dnnl_ABc8b8a,
        "dnnl_Abcd16a": dnnl_Abcd16a,
        "dnnl_Abcd8a": dnnl_Abcd8a,
        "dnnl_ABcd16a16b": dnnl_ABcd16a16b,
        "dnnl_Abcd32a": dnnl_Abcd32a,
        "dnnl_ABcd32a32b": dnnl_ABcd32a32b,
        "dnnl_aBcd16b": dnnl_aBcd16b,
        "dnnl_ABcd16b16a": dnnl_ABcd16b16a,
        "dnnl_aBCd16b16c": dnnl_aBCd16b16c,
        "dnnl_aBCd16c16b": dnnl_aBCd16c16b,
        "dnnl_Abcd4a": dnnl_Abcd4a,
        "dnnl_aBcd32b": dnnl_aBcd32b,
        "dnnl_aBcd4b": dnnl_aBcd4b,
        "dnnl_ABcd4b16a4b": dnnl_ABcd4b16a4b,
        "dnnl_ABcd16b16a4b": dnnl_ABcd16b16a4b,
        "dnnl_ABcd16b16a2b": dnnl_ABcd16b16a2b,
        "dnnl_ABcd4b4a": dnnl_ABcd4b4a,
        "dnnl_ABcd4a4b": dnnl_ABcd4a4b,
        "dnnl_aBCd2c4b2c": dnnl_aBCd2c4b2c,
        "dnnl_aBCd4b8c2b": dnnl_aBCd4b8c2b,
        "dnnl_aBCd4c16b4c": dnnl_aBCd4c16b4c,
        "dnnl_aBCd2c8b4c": dnnl_aBCd2c8b4c,
        "dnnl_aBCd16c16b4c": dnnl_aBCd16c16b4c,
        "dnnl_aBCd16c16b2c": dnnl_aBCd16c16b2c,
        "dnnl_aBCd4c4b": dnnl_aBCd4c4b,
        "dnnl_aBCd4b4c": dnnl_aBCd4b4c,
        "dnnl_ABcd8a16b2a": dnnl_ABcd8a16b2a,
        "dnnl_ABcd2b8a4b": dnnl_ABcd2b8a4b,
        "dnnl_ABcd8a8b": dnnl_ABcd8a8b,
        "dnnl_ABcd8a4b": dnnl_ABcd8a4b,
        "dnnl_aBcd8b": dnnl_aBcd8b,
        "dnnl_aBCd4c8b2c": dnnl_aBCd4c8b2c,
        "dnnl_ABcd8b16a2b": dnnl_ABcd8b16a2b,
        "dnnl_aBCd8b16c2b": dnnl_aBCd8b16c2b,
        "dnnl_BAcd8a16b2a": dnnl_BAcd8a16b2a,
        "dnnl_ABcd8b8a": dnnl_ABcd8b8a,
        "dnnl_aBCd8b8c": dnnl_aBCd8b8c,
        "dnnl_aBCd8b4c": dnnl_aBCd8b4c,
        "dnnl_aBCd8c16b2c": dnnl_aBCd8c16b2c,
        "dnnl_ABcde8a16b2a": dnnl_ABcde8a16b2a,
        "dnnl_aCBd8b16c2b": dnnl_aCBd8b16c2b,
        "dnnl_aBCd8c8b": dnnl_aBCd8c8b,
        "dnnl_Abcde16a": dnnl_Abcde16a,
        "dnnl_Abcde32a": dnnl_Abcde32a,
        "dnnl_ABcde16a16b": dnnl_ABcde16a16b,
        "dnnl_BAcde8a16b2a": dnnl_BAcde8a16b2a,
        "dnnl_aBCd2b4c2b": dnnl_aBCd2b4c2b,
        "dnnl_ABcde4b16a4b": dnnl_ABcde4b16a4b,
        "dnnl_ABcde2b8a4b": dnnl_ABcde2b8a4b,
        "dnnl_aBcde16b": dnnl_aBcde16b,
        "dnnl_ABcde16b16a": dnnl_ABcde16b16a,
        "dnnl_aBCde16b16c": dnnl_aBCde16b16c,
        "dnnl_aBCde16c16b": dnnl_aBCde16c16b,
        "dnnl_aBCde2c8b4c": dnnl_aBCde2c8b4c,
        "dnnl_Abcde4a": dnnl_Abcde4a,
        "dnnl_aBcde32b": dnnl_aBcde32b,
        "dnnl_aBcde4b": dnnl_aBcde4b,
        "dnnl_ABcde4b4a": dnnl_ABcde4b4a,
        "dnnl_ABcde4a4b": dnnl_ABcde4a4b,
        "dnnl_aBCde4b4c": dnnl_aBCde4b4c,
        "dnnl_aBCde2c4b2c": dnnl_aBCde2c4b2c,
        "dnnl_aBCde4b8c2b": dnnl_aBCde4b8c2b,
        "dnnl_aBCde4c16b4c": dnnl_aBCde4c16b4c,
        "dnnl_aBCde16c16b4c": dnnl_aBCde16c16b4c,
        "dnnl_aBCde16c16b2c": dnnl_aBCde16c16b2c,
        "dnnl_aBCde4c4b": dnnl_aBCde4c4b,
        "dnnl_Abcde8a": dnnl_Abcde8a,
        "dnnl_ABcde8a8b": dnnl_ABcde8a8b,
        "dnnl_ABcde8a4b": dnnl_ABcde8a4b,
        "dnnl_BAcde16b16a": dnnl_BAcde16b16a,
        "dnnl_aBcde8b": dnnl_aBcde8b,
        "dnnl_ABcde8b16a2b": dnnl_ABcde8b16a2b,
        "dnnl_aBCde8b16c2b": dnnl_aBCde8b16c2b,
        "dnnl_aBCde4c8b2c": dnnl_aBCde4c8b2c,
        "dnnl_aCBde8b16c2b": dnnl_aCBde8b16c2b,
        "dnnl_ABcde8b8a": dnnl_ABcde8b8a,
        "dnnl_ABcde32a32b": dnnl_ABcde32a32b,
        "dnnl_aBCde8b8c": dnnl_aBCde8b8c,
        "dnnl_aBCde8b4c": dnnl_aBCde8b4c,
        "dnnl_ABc4a8b8a4b": dnnl_ABc4a8b8a4b,
        "dnnl_ABcd4a8b8a4b": dnnl_ABcd4a8b8a4b,
        "dnnl_ABcde4a8b8a4b": dnnl_ABcde4a8b8a4b,
        "dnnl_BAc4b8a8b4a": dnnl_BAc4b8a8b4a,
        "dnnl_BAcd4b8a8b4a": dnnl_BAcd4b8a8b4a,
        "dnnl_BAcde4b8a8b4a": dnnl_BAcde4b8a8b4a,
        "dnnl_ABcd2a8b8a2b": dnnl_ABcd2a8b8a2b,
        "dnnl_aBCd4b8c8b4c": dnnl_aBCd4b8c8b4c,
        "dnnl_aBCde4b8c8b4c": dnnl_aBCde4b8c8b4c,
        "dnnl_aBCde2b8c8b2c": dnnl_aBCde2b8c8b2c,
        "dnnl_aBCde8c16b2c": dnnl_aBCde8c16b2c,
        "dnnl_aBCde8c8b": dnnl_aBCde8c8b,
        "dnnl_aBCde2b4c2b": dnnl_aBCde2b4c2b,
        "dnnl_aBcdef16b": dnnl_aBcdef16b,
        "dnnl_aBCdef16b16c": dnnl_aBCdef16b16c,
        "dnnl_aBCdef16c16b": dnnl_aBCdef16c16b,
        "dnnl_aBCdef4c16b4c": dnnl_aBCdef4c16b4c,
        "dnnl_aBCdef2c8b4c": dnnl_aBCdef2c8b4c,
        "dnnl_aBCdef4c8b2c": dnnl_aBCdef4c8b2c,
        "dnnl_aBCdef2b4c2b": dnnl_aBCdef2b4c2b,
        "dnnl_aBcdef4b": dnnl_aBcdef4b,
        "dnnl_aBCdef4c4b": dnnl_aBCdef4c4b,
        "dnnl_aBCdef4b4c": dnnl_aBCdef4b4c,
        "dnnl_aBCdef2c4b2c": dnnl_aBCdef2c4b2c,
        "dnnl_aBCdef4b8c2b": dnnl_aBCdef4b8c2b,
        "dnnl_aBCdef8b8c": dnnl_aBCdef8b8c,
        "dnnl_aBCdef8b4c": dnnl_aBCdef8b4c,
        "dnnl_aBCdef8c16b2c": dnnl_aBCdef8c16b2c,
        "dnnl_aBCdef4b8c8b4c": dnnl_aBCdef4b8c8b4c,
        "dnnl_aBCdef8b16c2b": dnnl_aBCdef8b16c2b,
        "dnnl_aCBdef8b16c2b": dnnl_aCBdef8b16c2b,
        "dnnl_aBCdef8c8b": dnnl_aBCdef8c8b,
        "dnnl_aBdc16b": dnnl_aBdc16b,
        "dnnl_aBdC16b2c": dnnl_aBdC16b2c,
        "dnnl_aBdC16b4c": dnnl_aBdC16b4c,
        "dnnl_aBdc4b": dnnl_aBdc4b,
        "dnnl_aBdc8b": dnnl_aBdc8b,
        "dnnl_aBdec16b": dnnl_aBdec16b,
        "dnnl_aBdeC16b2c": dnnl_aBdeC16b2c,
        "dnnl_aBdeC16b4c": dnnl_aBdeC16b4c,
        "dnnl_aBdec32b": dnnl_aBdec32b,
        "dnnl_aBdec4b": dnnl_aBdec4b,
        "dnnl_aBdec8b": dnnl_aBdec8b,
        "dnnl_aBdefc16b": dnnl_aBdefc16b,
        "dnnl_aBdefC16b2c": dnnl_aBdefC16b2c,
        "dnnl_aCBdef16c16b": dnnl_aCBdef16c16b,
        "dnnl_aBdefc4b": dnnl_aBdefc4b,
        "dnnl_aBdefc8b": dnnl_aBdefc8b,
        "dnnl_Abcdef16a": dnnl_Abcdef16a,
        "dnnl_Abcdef32a": dnnl_Abcdef32a,
        "dnnl_aBedc16b": dnnl_aBedc16b,
        "dnnl_Acb16a": dnnl_Acb16a,
        "dnnl_AcB16a2b": dnnl_AcB16a2b,
        "dnnl_AcB16a4b": dnnl_AcB16a4b,
        "dnnl_Acb4a": dnnl_Acb4a,
        "dnnl_Acb8a": dnnl_Acb8a,
        "dnnl_aCBd16b16c": dnnl_aCBd16b16c,
        "dnnl_aCBd16c16b": dnnl_aCBd16c16b,
        "dnnl_aCBde16b16c": dnnl_aCBde16b16c,
        "dnnl_aCBde16c16b": dnnl_aCBde16c16b,
        "dnnl_Acdb16a": dnnl_Acdb16a,
        "dnnl_AcdB16a2b": dnnl_AcdB16a2b,
        "dnnl_AcdB16a4b": dnnl_AcdB16a4b,
        "dnnl_Acdb32a": dnnl_Acdb32a,
        "dnnl_Acdb4a": dnnl_Acdb4a,
        "dnnl_Acdb8a": dnnl_Acdb8a,
        "dnnl_Acdeb16a": dnnl_Acdeb16a,
        "dnnl_AcdeB16a2b": dnnl_AcdeB16a2b,
        "dnnl_Acdeb4a": dnnl_Acdeb4a,
        "dnnl_Acdeb8a": dnnl_Acdeb8a,
        "dnnl_Adcb16a": dnnl_Adcb16a,
        "dnnl_BAc16a16b": dnnl_BAc16a16b,
        "dnnl_BAc16b16a": dnnl_BAc16b16a,
        "dnnl_BAcd16a16b": dnnl_BAcd16a16b,
        "dnnl_BAcd16b16a": dnnl_BAcd16b16a,
        "dnnl_aCBd4c8b8c4b": dnnl_aCBd4c8b8c4b,
        "dnnl_aCBde4c8b8c4b": dnnl_aCBde4c8b8c4b,
        "dnnl_aCBdef4c8b8c4b": dnnl_aCBdef4c8b8c4b,
        "dnnl_BAcde16a16b": dnnl_BAcde16a16b,
        "dnnl_aCBdef16b16c": dnnl_aCBdef16b16c,
        "dnnl_ABc16b32a": dnnl_ABc16b32a,
        "dnnl_ABc16b64a": dnnl_ABc16b64a,
        "dnnl_ABc4b32a4b": dnnl_ABc4b32a4b,
        "dnnl_ABc4b64a4b": dnnl_ABc4b64a4b,
        "dnnl_ABc8b32a2b": dnnl_ABc8b32a2b,
        "dnnl_ABc8b64a2b": dnnl_ABc8b64a2b,
        "dnnl_AB16b16a": dnnl_AB16b16a,
        "dnnl_AB16b32a": dnnl_AB16b32a,
        "dnnl_AB16b64a": dnnl_AB16b64a,
        "dnnl_AB8b16a2b": dnnl_AB8b16a2b,
        "dnnl_AB8b32a2b": dnnl_AB8b32a2b,
        "dnnl_AB8b64a2b": dnnl_AB8b64a2b,
        "dnnl_AB4b16a4b": dnnl_AB4b16a4b,
        "dnnl_AB4b32a4b": dnnl_AB4b32a4b,
        "dnnl_AB4b64a4b": dnnl_AB4b64a4b,
        "dnnl_AB16b16a4b": dnnl_AB16b16a4b,
        "dnnl_ABcd16b32a": dnnl_ABcd16b32a,
        "dnnl_ABcd16b64a": dnnl_ABcd16b64a,
        "dnnl_ABcd4b32a4b": dnnl_ABcd4b32a4b,
        "dnnl_ABcd4b64a4b": dnnl_ABcd4b64a4b,
        "dnnl_ABcd8b32a2b": dnnl_ABcd8b32a2b,
        "dnnl_ABcd8b64a2b": dnnl_ABcd8b64a2b,
        "dnnl_ABcde4b32a4b": dnnl_ABcde4b32a4b,
        "dnnl_ABcde4b64a4b": dnnl_ABcde4b64a4b,
        "dnnl_ABcde16b16a4b": dnnl_ABcde16b16a4b,
        "dnnl_ABcde16b16a2b": dnnl_ABcde16b16a2b,
        "dnnl_ABcde16b32a": dnnl_ABcde16b32a,
        "dnnl_ABcde16b64a": dnnl_ABcde16b64a,
        "dnnl_ABcde8b32a2b": dnnl_ABcde8b32a2b,
        "dnnl_ABcde8b64a2b": dnnl_ABcde8b64a2b,
        "dnnl_aBCdef16c16b4c": dnnl_aBCdef16c16b4c,
        "dnnl_aBCdef16c16b2c": dnnl_aBCdef16c16b2c,
        "dnnl_AB32a32b8a4b": dnnl_AB32a32b8a4b,
        "dnnl_AB8a4b": dnnl_AB8a4b,
        "dnnl_AB32a32b8a2b": dnnl_AB32a32b8a2b,
        "dnnl_AB8a2b": dnnl_AB8a2b,
        "dnnl_abDc32d": dnnl_abDc32d,
        "dnnl_abDC32d4c": dnnl_abDC32d4c,
        "dnnl_abdEc32e": dnnl_abdEc32e,
        "dnnl_abdEC32e2c": dnnl_abdEC32e2c,
        "dnnl_abdEC32e4c": dnnl_abdEC32e4c,
        "dnnl_aBdefC16b4c": dnnl_aBdefC16b4c,
        "dnnl_AcdeB16a4b": dnnl_AcdeB16a4b,
        "dnnl_ABcd16a16b2a": dnnl_ABcd16a16b2a,
        "dnnl_ABc16a16b2a": dnnl_ABc16a16b2a,
        "dnnl_aBCd16b16c2b": dnnl_aBCd16b16c2b,
        "dnnl_aBCde16b16c2b": dnnl_aBCde16b16c2b,
        "dnnl_Acb32a": dnnl_Acb32a,
        "dnnl_AcB32a2b": dnnl_AcB32a2b,
        "dnnl_AcB32a4b": dnnl_AcB32a4b,
        "dnnl_Acb48a": dnnl_Acb48a,
        "dnnl_AcB48a2b": dnnl_AcB48a2b,
        "dnnl_AcB48a4b": dnnl_AcB48a4b,
        "dnnl_Acb64a": dnnl_Acb64a,
        "dnnl_AcB64a2b": dnnl_AcB64a2b,
        "dnnl_AcB64a4b": dnnl_AcB64a4b,
        "dnnl_cBa2b": dnnl_cBa2b,
        "dnnl_cBa4b": dnnl_cBa4b,
        "dnnl_aBdc32b": dnnl_aBdc32b,
        "dnnl_aBdC32b2c": dnnl_aBdC32b2c,
        "dnnl_aBdC32b4c": dnnl_aBdC32b4c,
        "dnnl_aBdc48b": dnnl_aBdc48b,
        "dnnl_aBdC48b2c": dnnl_aBdC48b2c,
        "dnnl_aBdC48b4c": dnnl_aBdC48b4c,
        "dnnl_aBdc64b": dnnl_aBdc64b,
        "dnnl_aBdC64b2c": dnnl_aBdC64b2c,
        "dnnl_aBdC64b4c": dnnl_aBdC64b4c,
        "dnnl_adCb2c": dnnl_adCb2c,
        "dnnl_adCb4c": dnnl_adCb4c,
        "dnnl_AcdB32a2b": dnnl_AcdB32a2b,
        "dnnl_AcdB32a4b": dnnl_AcdB32a4b,
        "dnnl_Acdb48a": dnnl_Acdb48a,
        "dnnl_AcdB48a2b": dnnl_AcdB48a2b,
        "dnnl_AcdB48a4b": dnnl_AcdB48a4b,
        "dnnl_Acdb64a": dnnl_Acdb64a,
        "dnnl_AcdB64a2b": dnnl_AcdB64a2b,
        "dnnl_AcdB64a4b": dnnl_AcdB64a4b,
        "dnnl_cdBa2b": dnnl_cdBa2b,
        "dnnl_cdBa4b": dnnl_cdBa4b,
        "dnnl_aBdeC32b2c": dnnl_aBdeC32b2c,
        "dnnl_aBdeC32b4c": dnnl_aBdeC32b4c,
        "dnnl_aBdec48b": dnnl_aBdec48b,
        "dnnl_aBdeC48b2c": dnnl_aBdeC48b2c,
        "dnnl_aBdeC48b4c": dnnl_aBdeC48b4c,
        "dnnl_aBdec64b": dnnl_aBdec64b,
        "dnnl_aBdeC64b2c": dnnl_aBdeC64b2c,
        "dnnl_aBdeC64b4c": dnnl_aBdeC64b4c,
        "dnnl_adeCb2c": dnnl_adeCb2c,
        "dnnl_adeCb4c": dnnl_adeCb4c,
        "dnnl_Acdeb32a": dnnl_Acdeb32a,
        "dnnl_AcdeB32a2b": dnnl_AcdeB32a2b,
        "dnnl_AcdeB32a4b": dnnl_AcdeB32a4b,
        "dnnl_Acdeb48a": dnnl_Acdeb48a,
        "dnnl_AcdeB48a2b": dnnl_AcdeB48a2b,
        "dnnl_AcdeB48a4b": dnnl_AcdeB48a4b,
        "dnnl_Acdeb64a": dnnl_Acdeb64a,
        "dnnl_AcdeB64a2b": dnnl_AcdeB64a2b,
        "dnnl_AcdeB64a4b": dnnl_AcdeB64a4b,
        "dnnl_cdeBa2b": dnnl_cdeBa2b,
        "dnnl_cdeBa4b": dnnl_cdeBa4b,
        "dnnl_aBdefc32b": dnnl_aBdefc32b,
        "dnnl_aBdefC32b2c": dnnl_aBdefC32b2c,
        "dnnl_aBdefC32b4c": dnnl_aBdefC32b4c,
        "dnnl_aBdefc48b": dnnl_aBdefc48b,
        "dnnl_aBdefC48b2c": dnnl_aBdefC48b2c,
        "dnnl_aBdefC48b4c": dnnl_aBdefC48b4c,
        "dnnl_aBdefc64b": dnnl_aBdefc64b,
        "dnnl_aBdefC64b2c": dnnl_aBdefC64b2c,
        "dnnl_aBdefC64b4c": dnnl_aBdefC64b4c,
        "dnnl_adefCb2c": dnnl_adefCb2c,
        "dnnl_adefCb4c": dnnl_adefCb4c,
        "dnnl_AB16b32a4b": dnnl_AB16b32a4b,
        "dnnl_AB16b48a4b": dnnl_AB16b48a4b,
        "dnnl_AB16b64a4b": dnnl_AB16b64a4b,
        "dnnl_AB16b16a2b": dnnl_AB16b16a2b,
        "dnnl_AB16b32a2b": dnnl_AB16b32a2b,
        "dnnl_AB16b48a2b": dnnl_AB16b48a2b,
        "dnnl_AB16b64a2b": dnnl_AB16b64a2b,
        "dnnl_ABc16b32a4b": dnnl_ABc16b32a4b,
        "dnnl_ABc16b48a4b": dnnl_ABc16b48a4b,
        "dnnl_ABc16b64a4b": dnnl_ABc16b64a4b,
        "dnnl_ABc16b32a2b": dnnl_ABc16b32a2b,
        "dnnl_ABc16b48a2b": dnnl_ABc16b48a2b,
        "dnnl_ABc16b64a2b": dnnl_ABc16b64a2b,
        "dnnl_ABcd16b32a4b": dnnl_ABcd16b32a4b,
        "dnnl_ABcd16b48a4b": dnnl_ABcd16b48a4b,
        "dnnl_ABcd16b64a4b": dnnl_ABcd16b64a4b,
        "dnnl_ABcd16b32a2b": dnnl_ABcd16b32a2b,
        "dnnl_ABcd16b48a2b": dnnl_ABcd16b48a2b,
        "dnnl_ABcd16b64a2b": dnnl_ABcd16b64a2b,
        "dnnl_ABcde16b32a4b": dnnl_ABcde16b32a4b,
        "dnnl_ABcde16b48a4b": dnnl_ABcde16b48a4b,
        "dnnl_ABcde16b64a4b": dnnl_ABcde16b64a4b,
        "dnnl_ABcde16b32a2b": dnnl_ABcde16b32a2b,
        "dnnl_ABcde16b48a2b": dnnl_ABcde16b48a2b,
        "dnnl_ABcde16b64a2b": dnnl_ABcde16b64a2b,
        "dnnl_ABc32a16b": dnnl_ABc32a16b,
        "dnnl_ABcd32a16b": dnnl_ABcd32a16b,
        "dnnl_ABcde32a16b": dnnl_ABcde32a16b,
        "dnnl_AB48a16b": dnnl_AB48a16b,
        "dnnl_AB48a32b": dnnl_AB48a32b,
        "dnnl_ABc40a16b": dnnl_ABc40a16b,
        "dnnl_ABc40a32b": dnnl_ABc40a32b,
        "dnnl_aBC48b16c": dnnl_aBC48b16c,
        "dnnl_aBC48b32c": dnnl_aBC48b32c,
        "dnnl_ABcd40a16b": dnnl_ABcd40a16b,
        "dnnl_ABcd40a32b": dnnl_ABcd40a32b,
        "dnnl_abCd32c": dnnl_abCd32c,
        "dnnl_abdCe32c": dnnl_abdCe32c,
        "dnnl_abdCE32c2e": dnnl_abdCE32c2e,
        "dnnl_BA16a16b2a": dnnl_BA16a16b2a,
        "dnnl_BA16a32b2a": dnnl_BA16a32b2a,
        "dnnl_BA16a48b2a": dnnl_BA16a48b2a,
        "dnnl_BA16a64b2a": dnnl_BA16a64b2a,
        "dnnl_BA16a16b4a": dnnl_BA16a16b4a,
        "dnnl_BA16a32b4a": dnnl_BA16a32b4a,
        "dnnl_BA16a48b4a": dnnl_BA16a48b4a,
        "dnnl_BA16a64b4a": dnnl_BA16a64b4a,
        "dnnl_ABcd8a2b": dnnl_ABcd8a2b,
        "dnnl_aBdeC16c16b2c": dnnl_aBdeC16c16b2c,
        "dnnl_aBdeC16c16b4c": dnnl_aBdeC16c16b4c,
        "dnnl_aBdefC16c16b2c": dnnl_aBdefC16c16b2c,
        "dnnl_AcB16b16a2b": dnnl_AcB16b16a2b,
        "dnnl_AcB16b16a4b": dnnl_AcB16b16a4b,
        "dnnl_AcdB16b16a2b": dnnl_AcdB16b16a2b,
        "dnnl_AcdB16b16a4b": dnnl_AcdB16b16a4b,
        "dnnl_AcdeB16b16a2b": dnnl_AcdeB16b16a2b,
        "dnnl_aBdefC16c16b4c": dnnl_aBdefC16c16b4c,
        "dnnl_AcdeB16b16a4b": dnnl_AcdeB16b16a4b,
        "dnnl_AcB16b32a2b": dnnl_AcB16b32a2b,
        "dnnl_AcB16b32a4b": dnnl_AcB16b32a4b,
        "dnnl_AcB16b48a2b": dnnl_AcB16b48a2b,
        "dnnl_AcB16b48a4b": dnnl_AcB16b48a4b,
        "dnnl_AcB16b64a2b": dnnl_AcB16b64a2b,
        "dnnl_AcB16b64a4b": dnnl_AcB16b64a4b,
        "dnnl_aBdC16c16b2c": dnnl_aBdC16c16b2c,
        "dnnl_aBdC16c16b4c": dnnl_aBdC16c16b4c,
        "dnnl_aBdC16c32b2c": dnnl_aBdC16c32b2c,
        "dnnl_aBdC16c32b4c": dnnl_aBdC16c32b4c,
        "dnnl_aBdC16c48b2c": dnnl_aBdC16c48b2c,
        "dnnl_aBdC16c48b4c": dnnl_aBdC16c48b4c,
        "dnnl_aBdC16c64b2c": dnnl_aBdC16c64b2c,
        "dnnl_aBdC16c64b4c": dnnl_aBdC16c64b4c,
        "dnnl_AcdB16b32a2b": dnnl_AcdB16b32a2b,
        "dnnl_AcdB16b32a4b": dnnl_AcdB16b32a4b,
        "dnnl_AcdB16b48a2b": dnnl_AcdB16b48a2b,
        "dnnl_AcdB16b48a4b": dnnl_AcdB16b48a4b,
        "dnnl_AcdB16b64a2b": dnnl_AcdB16b64a2b,
        "dnnl_AcdB16b64a4b": dnnl_AcdB16b64a4b,
        "dnnl_aBdeC16c32b2c": dnnl_aBdeC16c32b2c,
        "dnnl_aBdeC16c32b4c": dnnl_aBdeC16c32b4c,
        "dnnl_aBdeC16c48b2c": dnnl_aBdeC16c48b2c,
        "dnnl_aBdeC16c48b4c": dnnl_aBdeC16c48b4c,
        "dnnl_aBdeC16c64b2c": dnnl_aBdeC16c64b2c,
        "dnnl_aBdeC16c64b4c": dnnl_aBdeC16c64b4c,
        "dnnl_AcdeB16b32a2b": dnnl_AcdeB16b32a2b,
        "dnnl_AcdeB16b32a4b": dnnl_AcdeB16b32a4b,
        "dnnl_AcdeB16b48a2b": dnnl_AcdeB16b48a2b,
        "dnnl_AcdeB16b48a4b": dnnl_AcdeB16b48a4b,
        "dnnl_AcdeB16b64a2b": dnnl_AcdeB16b64a2b,
        "dnnl_AcdeB16b64a4b": dnnl_AcdeB16b64a4b,
        "dnnl_aBdefC16c32b2c": dnnl_aBdefC16c32b2c,
        "dnnl_aBdefC16c32b4c": dnnl_aBdefC16c32b4c,
        "dnnl_aBdefC16c48b2c": dnnl_aBdefC16c48b2c,
        "dnnl_aBdefC16c48b4c": dnnl_aBdefC16c48b4c,
        "dnnl_aBdefC16c64b2c": dnnl_aBdefC16c64b2c,
        "dnnl_aBdefC16c64b4c": dnnl_aBdefC16c64b4c,
        "dnnl_decbA16a": dnnl_decbA16a,
        "dnnl_ABc4a2b": dnnl_ABc4a2b,
        "dnnl_ABc8a2b": dnnl_ABc8a2b,
        "dnnl_aBCd8b2c": dnnl_aBCd8b2c,
        "dnnl_ABcde4a2b": dnnl_ABcde4a2b,
        "dnnl_ABcde8a2b": dnnl_ABcde8a2b,
        "dnnl_ABcde40a16b": dnnl_ABcde40a16b,
        "dnnl_ABcde40a32b": dnnl_ABcde40a32b,
        "dnnl_aBCde8b2c": dnnl_aBCde8b2c,
        "dnnl_ABcde4a8b8a2b": dnnl_ABcde4a8b8a2b,
        "dnnl_ABcd4a8b8a2b": dnnl_ABcd4a8b8a2b,
        "dnnl_ABc4a8b8a2b": dnnl_ABc4a8b8a2b,
        "dnnl_aBCdef4b8c8b2c": dnnl_aBCdef4b8c8b2c,
        "dnnl_aBCde4b8c8b2c": dnnl_aBCde4b8c8b2c,
        "dnnl_aBCd4b8c8b2c": dnnl_aBCd4b8c8b2c,
        "dnnl_BAcde4b8a8b2a": dnnl_BAcde4b8a8b2a,
        "dnnl_BAcd4b8a8b2a": dnnl_BAcd4b8a8b2a,
        "dnnl_BAc4b8a8b2a": dnnl_BAc4b8a8b2a,
        "dnnl_aCBdef4c8b8c2b": dnnl_aCBdef4c8b8c2b,
        "dnnl_aCBde4c8b8c2b": dnnl_aCBde4c8b8c2b,
        "dnnl_aCBd4c8b8c2b": dnnl_aCBd4c8b8c2b,
        "dnnl_aBCdef8b2c": dnnl_aBCdef8b2c,
        "dnnl_AB32a16b": dnnl_AB32a16b,
        "dnnl_AB32a32b": dnnl_AB32a32b,
        "dnnl_BA4b8a8b2a": dnnl_BA4b8a8b2a,
        "dnnl_BA4b8a8b4a": dnnl_BA4b8a8b4a,
        "dnnl_aBC32b16c": dnnl_aBC32b16c,
        "dnnl_aBC32b32c": dnnl_aBC32b32c,
        "dnnl_aCB4c8b8c2b": dnnl_aCB4c8b8c2b,
        "dnnl_aCB4c8b8c4b": dnnl_aCB4c8b8c4b,
        "dnnl_ABcd4a2b": dnnl_ABcd4a2b,
        "dnnl_ABc2b8a16b4a": dnnl_ABc2b8a16b4a,
        "dnnl_ABcd2b8a16b4a": dnnl_ABcd2b8a16b4a,
        "dnnl_ABcde2b8a16b4a": dnnl_ABcde2b8a16b4a,
        "dnnl_ABc2a8b16a4b": dnnl_ABc2a8b16a4b,
        "dnnl_ABc2a8b16a2b": dnnl_ABc2a8b16a2b,
        "dnnl_ABc2b32a8b": dnnl_ABc2b32a8b,
        "dnnl_ABcd2a8b16a4b": dnnl_ABcd2a8b16a4b,
        "dnnl_ABcd2a8b16a2b": dnnl_ABcd2a8b16a2b,
        "dnnl_aCBd2c8b16c2b": dnnl_aCBd2c8b16c2b,
        "dnnl_ABcd2b32a8b": dnnl_ABcd2b32a8b,
        "dnnl_aBCd2c8b16c2b": dnnl_aBCd2c8b16c2b,
        "dnnl_ABcde2a8b16a4b": dnnl_ABcde2a8b16a4b,
        "dnnl_ABcde2a8b16a2b": dnnl_ABcde2a8b16a2b,
        "dnnl_aCBde2c8b16c2b": dnnl_aCBde2c8b16c2b,
        "dnnl_ABcde2b32a8b": dnnl_ABcde2b32a8b,
        "dnnl_aBC2b8c16b2c": dnnl_aBC2b8c16b2c,
        "dnnl_aBCd2b8c16b2c": dnnl_aBCd2b8c16b2c,
        "dnnl_aBCde2b8c16b2c": dnnl_aBCde2b8c16b2c,
        "dnnl_aBCdef2b8c16b2c": dnnl_aBCdef2b8c16b2c,
        "dnnl_BAcde2b8a16b4a": dnnl_BAcde2b8a16b4a,
        "dnnl_BAcd2b8a16b4a": dnnl_BAcd2b8a16b4a,
        "dnnl_BAc2b8a16b4a": dnnl_BAc2b8a16b4a,
        "dnnl_BAcde2b8a16b2a": dnnl_BAcde2b8a16b2a,
        "dnnl_BAcd2b8a16b2a": dnnl_BAcd2b8a16b2a,
        "dnnl_BAc2b8a16b2a": dnnl_BAc2b8a16b2a,
        "dnnl_aBCde2c8b16c2b": dnnl_aBCde2c8b16c2b,
        "dnnl_aBCdef2c8b16c2b": dnnl_aBCdef2c8b16c2b,
        "dnnl_aCBdef2c8b16c2b": dnnl_aCBdef2c8b16c2b,
        "dnnl_aBCd2b8c16b4c": dnnl_aBCd2b8c16b4c,
        "dnnl_aBCde2b8c16b4c": dnnl_aBCde2b8c16b4c,
        "dnnl_BA4b8a16b2a": dnnl_BA4b8a16b2a,
        "dnnl_BA4b8a16b4a": dnnl_BA4b8a16b4a,
        "dnnl_aCB4c8b16c2b": dnnl_aCB4c8b16c2b,
        "dnnl_aCB4c8b16c4b": dnnl_aCB4c8b16c4b,
        "dnnl_BA16a16b": dnnl_BA16a16b,
        "dnnl_BA16a32b": dnnl_BA16a32b,
        "dnnl_BA16a48b": dnnl_BA16a48b,
        "dnnl_BA16a64b": dnnl_BA16a64b,
        "dnnl_aCB16c2b": dnnl_aCB16c2b,
        "dnnl_aCB16c4b": dnnl_aCB16c4b,
        "dnnl_BA16b2a": dnnl_BA16b2a,
        "dnnl_BA16b4a": dnnl_BA16b4a,
        "dnnl_aBC16b16c": dnnl_aBC16b16c,
        "dnnl_aBC16b32c": dnnl_aBC16b32c,
        "dnnl_AB16a16b": dnnl_AB16a16b,
        "dnnl_AB16a32b": dnnl_AB16a32b,
        "dnnl_ABcde16a16b2a": dnnl_ABcde16a16b2a,
        "dnnl_aBCdef16b16c2b": dnnl_aBCdef16b16c2b,
        "dnnl_Acedb16a": dnnl_Acedb16a,
        "dnnl_aBdfec16b": dnnl_aBdfec16b,
        "dnnl_abdEC64e2c": dnnl_abdEC64e2c,
        "dnnl_abdEC64e4c": dnnl_abdEC64e4c,
        "dnnl_aCB16b16c": dnnl_aCB16b16c,
        "dnnl_aCB16b32c": dnnl_aCB16b32c,
        "dnnl_aCB16b48c": dnnl_aCB16b48c,
        "dnnl_aCB16b64c": dnnl_aCB16b64c,
        "dnnl_aCB16b16c2b": dnnl_aCB16b16c2b,
        "dnnl_aCB16b32c2b": dnnl_aCB16b32c2b,
        "dnnl_aCB16b48c2b": dnnl_aCB16b48c2b,
        "dnnl_aCB16b64c2b": dnnl_aCB16b64c2b,
        "dnnl_aCB16b16c4b": dnnl_aCB16b16c4b,
        "dnnl_aCB16b32c4b": dnnl_aCB16b32c4b,
        "dnnl_aCB16b48c4b": dnnl_aCB16b48c4b,
        "dnnl_aCB16b64c4b": dnnl_aCB16b64c4b,
        "dnnl_abCd4c": dnnl_abCd4c,
        "dnnl_abCde4c": dnnl_abCde4c,
        "dnnl_abCdef4c": dnnl_abCdef4c,
        "dnnl_abCde32c": dnnl_abCde32c,
        "dnnl_abCdef32c": dnnl_abCdef32c,
        "dnnl_ABcd16a32b": dnnl_ABcd16a32b,
        "dnnl_decbA8a": dnnl_decbA8a,
        "dnnl_aCdefB16b32c2b": dnnl_aCdefB16b32c2b,
        "dnnl_aCdefB16b32c4b": dnnl_aCdefB16b32c4b,
        "dnnl_aCdefB16b48c2b": dnnl_aCdefB16b48c2b,
        "dnnl_aCdefB16b48c4b": dnnl_aCdefB16b48c4b,
        "dnnl_aCdefB16b64c2b": dnnl_aCdefB16b64c2b,
        "dnnl_aCdefB16b64c4b": dnnl_aCdefB16b64c4b,
        "dnnl_BcdeA16a32b2a": dnnl_BcdeA16a32b2a,
        "dnnl_BcdeA16a32b4a": dnnl_BcdeA16a32b4a,
        "dnnl_BcdeA16a48b2a": dnnl_BcdeA16a48b2a,
        "dnnl_BcdeA16a48b4a": dnnl_BcdeA16a48b4a,
        "dnnl_BcdeA16a64b2a": dnnl_BcdeA16a64b2a,
        "dnnl_BcdeA16a64b4a": dnnl_BcdeA16a64b4a,
        "dnnl_aCdefb32c": dnnl_aCdefb32c,
        "dnnl_aCdefB32c2b": dnnl_aCdefB32c2b,
        "dnnl_aCdefB32c4b": dnnl_aCdefB32c4b,
        "dnnl_aCdefb48c": dnnl_aCdefb48c,
        "dnnl_aCdefB48c2b": dnnl_aCdefB48c2b,
        "dnnl_aCdefB48c4b": dnnl_aCdefB48c4b,
        "dnnl_aCdefb64c": dnnl_aCdefb64c,
        "dnnl_aCdefB64c2b": dnnl_aCdefB64c2b,
        "dnnl_aCdefB64c4b": dnnl_aCdefB64c4b,
        "dnnl_Bcdea32b": dnnl_Bcdea32b,
        "dnnl_BcdeA32b2a": dnnl_BcdeA32b2a,
        "dnnl_BcdeA32b4a": dnnl_BcdeA32b4a,
        "dnnl_Bcdea48b": dnnl_Bcdea48b,
        "dnnl_BcdeA48b2a": dnnl_BcdeA48b2a,
        "dnnl_BcdeA48b4a": dnnl_BcdeA48b4a,
        "dnnl_Bcdea64b": dnnl_Bcdea64b,
        "dnnl_BcdeA64b2a": dnnl_BcdeA64b2a,
        "dnnl_BcdeA64b4a": dnnl_BcdeA64b4a,
        "dnnl_Bca32b": dnnl_Bca32b,
        "dnnl_BcA32b2a": dnnl_BcA32b2a,
        "dnnl_BcA32b4a": dnnl_BcA32b4a,
        "dnnl_Bca48b": dnnl_Bca48b,
        "dnnl_BcA48b2a": dnnl_BcA48b2a,
        "dnnl_BcA48b4a": dnnl_BcA48b4a,
        "dnnl_Bca64b": dnnl_Bca64b,
        "dnnl_BcA64b2a": dnnl_BcA64b2a,
        "dnnl_BcA64b4a": dnnl_BcA64b4a,
        "dnnl_aCdb32c": dnnl_aCdb32c,
        "dnnl_aCdB32c2b": dnnl_aCdB32c2b,
        "dnnl_aCdB32c4b": dnnl_aCdB32c4b,
        "dnnl_aCdb48c": dnnl_aCdb48c,
        "dnnl_aCdB48c2b": dnnl_aCdB48c2b,
        "dnnl_aCdB48c4b": dnnl_aCdB48c4b,
        "dnnl_aCdb64c": dnnl_aCdb64c,
        "dnnl_aCdB64c2b": dnnl_aCdB64c2b,
        "dnnl_aCdB64c4b": dnnl_aCdB64c4b,
        "dnnl_BcA16a16b2a": dnnl_BcA16a16b2a,
        "dnnl_BcA16a16b4a": dnnl_BcA16a16b4a,
        "dnnl_BcdA16a16b2a": dnnl_BcdA16a16b2a,
        "dnnl_BcdA16a16b4a": dnnl_BcdA16a16b4a,
        "dnnl_BcdeA16a16b2a": dnnl_BcdeA16a16b2a,
        "dnnl_BcdeA16a16b4a": dnnl_BcdeA16a16b4a,
        "dnnl_aCdB16b16c2b": dnnl_aCdB16b16c2b,
        "dnnl_aCdB16b16c4b": dnnl_aCdB16b16c4b,
        "dnnl_aCdeB16b16c2b": dnnl_aCdeB16b16c2b,
        "dnnl_aCdeB16b16c4b": dnnl_aCdeB16b16c4b,
        "dnnl_aCdefB16b16c2b": dnnl_aCdefB16b16c2b,
        "dnnl_aCdefB16b16c4b": dnnl_aCdefB16b16c4b,
        "dnnl_BcA16a32b2a": dnnl_BcA16a32b2a,
        "dnnl_BcA16a32b4a": dnnl_BcA16a32b4a,
        "dnnl_BcA16a48b2a": dnnl_BcA16a48b2a,
        "dnnl_BcA16a48b4a": dnnl_BcA16a48b4a,
        "dnnl_BcA16a64b2a": dnnl_BcA16a64b2a,
        "dnnl_BcA16a64b4a": dnnl_BcA16a64b4a,
        "dnnl_aCdB16b32c2b": dnnl_aCdB16b32c2b,
        "dnnl_aCdB16b32c4b": dnnl_aCdB16b32c4b,
        "dnnl_aCdB16b48c2b": dnnl_aCdB16b48c2b,
        "dnnl_aCdB16b48c4b": dnnl_aCdB16b48c4b,
        "dnnl_aCdB16b64c2b": dnnl_aCdB16b64c2b,
        "dnnl_aCdB16b64c4b": dnnl_aCdB16b64c4b,
        "dnnl_BcdA16a32b2a": dnnl_BcdA16a32b2a,
        "dnnl_BcdA16a32b4a": dnnl_BcdA16a32b4a,
        "dnnl_BcdA16a48b2a": dnnl_BcdA16a48b2a,
        "dnnl_BcdA16a48b4a": dnnl_BcdA16a48b4a,
        "dnnl_BcdA16a64b2a": dnnl_BcdA16a64b2a,
        "dnnl_BcdA16a64b4a": dnnl_BcdA16a64b4a,
        "dnnl_aCdeB16b32c2b": dnnl_aCdeB16b32c2b,
        "dnnl_aCdeB16b32c4b": dnnl_aCdeB16b32c4b,
        "dnnl_aCdeB16b48c2b": dnnl_aCdeB16b48c2b,
        "dnnl_aCdeB16b48c4b": dnnl_aCdeB16b48c4b,
        "dnnl_aCdeB16b64c2b": dnnl_aCdeB16b64c2b,
        "dnnl_aCdeB16b64c4b": dnnl_aCdeB16b64c4b,
        "dnnl_Bca16b": dnnl_Bca16b,
        "dnnl_BcA16b2a": dnnl_BcA16b2a,
        "dnnl_BcA16b4a": dnnl_BcA16b4a,
        "dnnl_Bcda16b": dnnl_Bcda16b,
        "dnnl_BcdA16b2a": dnnl_BcdA16b2a,
        "dnnl_BcdA16b4a": dnnl_BcdA16b4a,
        "dnnl_Bcdea16b": dnnl_Bcdea16b,
        "dnnl_BcdeA16b2a": dnnl_BcdeA16b2a,
        "dnnl_BcdeA16b4a": dnnl_BcdeA16b4a,
        "dnnl_aCdb16c": dnnl_aCdb16c,
        "dnnl_aCdB16c2b": dnnl_aCdB16c2b,
        "dnnl_aCdB16c4b": dnnl_aCdB16c4b,
        "dnnl_aCdeb16c": dnnl_aCdeb16c,
        "dnnl_aCdeB16c2b": dnnl_aCdeB16c2b,
        "dnnl_aCdeB16c4b": dnnl_aCdeB16c4b,
        "dnnl_aCdefb16c": dnnl_aCdefb16c,
        "dnnl_aCdefB16c2b": dnnl_aCdefB16c2b,
        "dnnl_aCdefB16c4b": dnnl_aCdefB16c4b,
        "dnnl_Bcda32b": dnnl_Bcda32b,
        "dnnl_BcdA32b2a": dnnl_BcdA32b2a,
        "dnnl_BcdA32b4a": dnnl_BcdA32b4a,
        "dnnl_Bcda48b": dnnl_Bcda48b,
        "dnnl_BcdA48b2a": dnnl_BcdA48b2a,
        "dnnl_BcdA48b4a": dnnl_BcdA48b4a,
        "dnnl_Bcda64b": dnnl_Bcda64b,
        "dnnl_BcdA64b2a": dnnl_BcdA64b2a,
        "dnnl_BcdA64b4a": dnnl_BcdA64b4a,
        "dnnl_aCdeb32c": dnnl_aCdeb32c,
        "dnnl_aCdeB32c2b": dnnl_aCdeB32c2b,
        "dnnl_aCdeB32c4b": dnnl_aCdeB32c4b,
        "dnnl_aCdeb48c": dnnl_aCdeb48c,
        "dnnl_aCdeB48c2b": dnnl_aCdeB48c2b,
        "dnnl_aCdeB48c4b": dnnl_aCdeB48c4b,
        "dnnl_aCdeb64c": dnnl_aCdeb64c,
        "dnnl_aCdeB64c2b": dnnl_aCdeB64c2b,
        "dnnl_aCdeB64c4b": dnnl_aCdeB64c4b,
        "dnnl_Acb24a": dnnl_Acb24a,
        "dnnl_Acdb24a": dnnl_Acdb24a,
        "dnnl_Acdeb24a": dnnl_Acdeb24a,
        "dnnl_aBdc24b": dnnl_aBdc24b,
        "dnnl_aBdec24b": dnnl_aBdec24b,
        "dnnl_aBdefc24b": dnnl_aBdefc24b,
        "dnnl_abDc16d": dnnl_abDc16d,
        "dnnl_abdEc16e": dnnl_abdEc16e,
        "dnnl_abdCe16c": dnnl_abdCe16c,
        "dnnl_AcB24a2b": dnnl_AcB24a2b,
        "dnnl_AcdB24a2b": dnnl_AcdB24a2b,
        "dnnl_AcdeB24a2b": dnnl_AcdeB24a2b,
        "dnnl_aBdC24b2c": dnnl_aBdC24b2c,
        "dnnl_aBdeC24b2c": dnnl_aBdeC24b2c,
        "dnnl_aBdefC24b2c": dnnl_aBdefC24b2c,
        "dnnl_AcB8a2b": dnnl_AcB8a2b,
        "dnnl_AcdB8a2b": dnnl_AcdB8a2b,
        "dnnl_AcdeB8a2b": dnnl_AcdeB8a2b,
        "dnnl_aBdC8b2c": dnnl_aBdC8b2c,
        "dnnl_aBdeC8b2c": dnnl_aBdeC8b2c,
        "dnnl_aBdefC8b2c": dnnl_aBdefC8b2c,
        "dnnl_AB8b32a": dnnl_AB8b32a,
        "dnnl_ABc8b32a": dnnl_ABc8b32a,
        "dnnl_ABcd8b32a": dnnl_ABcd8b32a,
        "dnnl_ABcde8b32a": dnnl_ABcde8b32a,
        "dnnl_AB8b24a": dnnl_AB8b24a,
        "dnnl_ABc8b24a": dnnl_ABc8b24a,
        "dnnl_ABcd8b24a": dnnl_ABcd8b24a,
        "dnnl_ABcde8b24a": dnnl_ABcde8b24a,
        "dnnl_AB8b16a": dnnl_AB8b16a,
        "dnnl_ABc8b16a": dnnl_ABc8b16a,
        "dnnl_ABcd8b16a": dnnl_ABcd8b16a,
        "dnnl_ABcde8b16a": dnnl_ABcde8b16a,
        "dnnl_AB8b8a": dnnl_AB8b8a,
        "dnnl_AB4b8a4b": dnnl_AB4b8a4b,
        "dnnl_AB4b24a4b": dnnl_AB4b24a4b,
        "dnnl_ABc4b8a4b": dnnl_ABc4b8a4b,
        "dnnl_ABc4b24a4b": dnnl_ABc4b24a4b,
        "dnnl_ABcd4b8a4b": dnnl_ABcd4b8a4b,
        "dnnl_ABcd4b24a4b": dnnl_ABcd4b24a4b,
        "dnnl_ABcde4b8a4b": dnnl_ABcde4b8a4b,
        "dnnl_ABcde4b24a4b": dnnl_ABcde4b24a4b,
        "dnnl_AB8b24a2b": dnnl_AB8b24a2b,
        "dnnl_ABc8b24a2b": dnnl_ABc8b24a2b,
        "dnnl_ABcd8b24a2b": dnnl_ABcd8b24a2b,
        "dnnl_ABcde8b24a2b": dnnl_ABcde8b24a2b,
        "dnnl_AB8b8a2b": dnnl_AB8b8a2b,
        "dnnl_ABc8b8a2b": dnnl_ABc8b8a2b,
        "dnnl_ABcd8b8a2b": dnnl_ABcd8b8a2b,
        "dnnl_ABcde8b8a2b": dnnl_ABcde8b8a2b,
        "dnnl_AcB24a4b": dnnl_AcB24a4b,
        "dnnl_AcdB24a4b": dnnl_AcdB24a4b,
        "dnnl_AcdeB24a4b": dnnl_AcdeB24a4b,
        "dnnl_aBdC24b4c": dnnl_aBdC24b4c,
        "dnnl_aBdeC24b4c": dnnl_aBdeC24b4c,
        "dnnl_aBdefC24b4c": dnnl_aBdefC24b4c,
        "dnnl_AcB8a4b": dnnl_AcB8a4b,
        "dnnl_AcdB8a4b": dnnl_AcdB8a4b,
        "dnnl_AcdeB8a4b": dnnl_AcdeB8a4b,
        "dnnl_aBdC8b4c": dnnl_aBdC8b4c,
        "dnnl_aBdeC8b4c": dnnl_aBdeC8b4c,
        "dnnl_aBdefC8b4c": dnnl_aBdefC8b4c,
        "dnnl_Bca8b": dnnl_Bca8b,
        "dnnl_BcA8b2a": dnnl_BcA8b2a,
        "dnnl_Bcda8b": dnnl_Bcda8b,
        "dnnl_BcdA8b2a": dnnl_BcdA8b2a,
        "dnnl_Bcdea8b": dnnl_Bcdea8b,
        "dnnl_BcdeA8b2a": dnnl_BcdeA8b2a,
        "dnnl_aCdb8c": dnnl_aCdb8c,
        "dnnl_aCdB8c2b": dnnl_aCdB8c2b,
        "dnnl_aCdeb8c": dnnl_aCdeb8c,
        "dnnl_aCdeB8c2b": dnnl_aCdeB8c2b,
        "dnnl_aCdefb8c": dnnl_aCdefb8c,
        "dnnl_aCdefB8c2b": dnnl_aCdefB8c2b,
        "dnnl_Bca24b": dnnl_Bca24b,
        "dnnl_BcA24b2a": dnnl_BcA24b2a,
        "dnnl_Bcda24b": dnnl_Bcda24b,
        "dnnl_BcdA24b2a": dnnl_BcdA24b2a,
        "dnnl_Bcdea24b": dnnl_Bcdea24b,
        "dnnl_BcdeA24b2a": dnnl_BcdeA24b2a,
        "dnnl_aCdb24c": dnnl_aCdb24c,
        "dnnl_aCdB24c2b": dnnl_aCdB24c2b,
        "dnnl_aCdeb24c": dnnl_aCdeb24c,
        "dnnl_aCdeB24c2b": dnnl_aCdeB24c2b,
        "dnnl_aCdefb24c": dnnl_aCdefb24c,
        "dnnl_aCdefB24c2b": dnnl_aCdefB24c2b,
        "dnnl_BcA8b4a": dnnl_BcA8b4a,
        "dnnl_BcdA8b4a": dnnl_BcdA8b4a,
        "dnnl_BcdeA8b4a": dnnl_BcdeA8b4a,
        "dnnl_aCdB8c4b": dnnl_aCdB8c4b,
        "dnnl_aCdeB8c4b": dnnl_aCdeB8c4b,
        "dnnl_aCdefB8c4b": dnnl_aCdefB8c4b,
        "dnnl_BcA24b4a": dnnl_BcA24b4a,
        "dnnl_BcdA24b4a": dnnl_BcdA24b4a,
        "dnnl_BcdeA24b4a": dnnl_BcdeA24b4a,
        "dnnl_aCdB24c4b": dnnl_aCdB24c4b,
        "dnnl_aCdeB24c4b": dnnl_aCdeB24c4b,
        "dnnl_aCdefB24c4b": dnnl_aCdefB24c4b,
        "dnnl_AB16b48a": dnnl_AB16b48a,
        "dnnl_ABc16b48a": dnnl_ABc16b48a,
        "dnnl_ABcd16b48a": dnnl_ABcd16b48a,
        "dnnl_ABcde16b48a": dnnl_ABcde16b48a,
        "dnnl_format_tag_last": dnnl_format_tag_last,
        "dnnl_x": dnnl_x,
        "dnnl_nc": dnnl_nc,
        "dnnl_cn": dnnl_cn,
        "dnnl_tn": dnnl_tn,
        "dnnl_nt": dnnl_nt,
        "dnnl_ncw": dnnl_ncw,
        "dnnl_nwc": dnnl_nwc,
        "dnnl_nchw": dnnl_nchw,
        "dnnl_nhwc": dnnl_nhwc,
        "dnnl_chwn": dnnl_chwn,
        "dnnl_ncdhw": dnnl_ncdhw,
        "dnnl_ndhwc": dnnl_ndhwc,
        "dnnl_oi": dnnl_oi,
        "dnnl_io": dnnl_io,
        "dnnl_oiw": dnnl_oiw,
        "dnnl_owi": dnnl_owi,
        "dnnl_wio": dnnl_wio,
        "dnnl_woi": dnnl_woi,
        "dnnl_iwo": dnnl_iwo,
        "dnnl_oihw": dnnl_oihw,
        "dnnl_hwio": dnnl_hwio,
        "dnnl_hwoi": dnnl_hwoi,
        "dnnl_ohwi": dnnl_ohwi,
        "dnnl_ihwo": dnnl_ihwo,
        "dnnl_iohw": dnnl_iohw,
        "dnnl_oidhw": dnnl_oidhw,
        "dnnl_iodhw": dnnl_iodhw,
        "dnnl_dhwio": dnnl_dhwio,
        "dnnl_dhwoi": dnnl_dhwoi,
        "dnnl_odhwi": dnnl_odhwi,
        "dnnl_idhwo": dnnl_idhwo,
        "dnnl_goiw": dnnl_goiw,
        "dnnl_gowi": dnnl_gowi,
        "dnnl_wigo": dnnl_wigo,
        "dnnl_goihw": dnnl_goihw,
        "dnnl_gohwi": dnnl_gohwi,
        "dnnl_hwigo": dnnl_hwigo,
        "dnnl_giohw": dnnl_giohw,
        "dnnl_goidhw": dnnl_goidhw,
        "dnnl_godhwi": dnnl_godhwi,
        "dnnl_giodhw": dnnl_giodhw,
        "dnnl_dhwigo": dnnl_dhwigo,
        "dnnl_tnc": dnnl_tnc,
        "dnnl_ntc": dnnl_ntc,
        "dnnl_ldnc": dnnl_ldnc,
        "dnnl_ldigo": dnnl_ldigo,
        "dnnl_ldgoi": dnnl_ldgoi,
        "dnnl_ldio": dnnl_ldio,
        "dnnl_ldoi": dnnl_ldoi,
        "dnnl_ldgo": dnnl_ldgo,
        "dnnl_ldOi16o": dnnl_ldOi16o,
        "dnnl_ldOi32o": dnnl_ldOi32o,
        "dnnl_ldOI32o4i": dnnl_ldOI32o4i,
        "dnnl_ldIo32i": dnnl_ldIo32i,
        "dnnl_ldgOi16o": dnnl_ldgOi16o,
        "dnnl_ldgOi32o": dnnl_ldgOi32o,
        "dnnl_ldgOI32o2i": dnnl_ldgOI32o2i,
        "dnnl_ldgOI32o4i": dnnl_ldgOI32o4i,
        "dnnl_ldgOI64o2i": dnnl_ldgOI64o2i,
        "dnnl_ldgOI64o4i": dnnl_ldgOI64o4i,
        "dnnl_ldgIo16i": dnnl_ldgIo16i,
        "dnnl_ldgIo32i": dnnl_ldgIo32i,
        "dnnl_ldgIO32i2o": dnnl_ldgIO32i2o,
        "dnnl_nCdhw32c": dnnl_nCdhw32c,
        "dnnl_nCdhw16c": dnnl_nCdhw16c,
        "dnnl_nCdhw4c": dnnl_nCdhw4c,
        "dnnl_nCdhw8c": dnnl_nCdhw8c,
        "dnnl_nChw32c": dnnl_nChw32c,
        "dnnl_nChw16c": dnnl_nChw16c,
        "dnnl_nChw4c": dnnl_nChw4c,
        "dnnl_nChw8c": dnnl_nChw8c,
        "dnnl_nCw32c": dnnl_nCw32c,
        "dnnl_nCw16c": dnnl_nCw16c,
        "dnnl_nCw4c": dnnl_nCw4c,
        "dnnl_nCw8c": dnnl_nCw8c,
        "dnnl_NCw16n16c": dnnl_NCw16n16c,
        "dnnl_NCdhw16n16c": dnnl_NCdhw16n16c,
        "dnnl_NChw16n16c": dnnl_NChw16n16c,
        "dnnl_NCw32n16c": dnnl_NCw32n16c,
        "dnnl_NChw32n16c": dnnl_NChw32n16c,
        "dnnl_NChw16n32c": dnnl_NChw16n32c,
        "dnnl_NCdhw32n16c": dnnl_NCdhw32n16c,
        "dnnl_NCw32n32c": dnnl_NCw32n32c,
        "dnnl_NChw32n32c": dnnl_NChw32n32c,
        "dnnl_NCdhw32n32c": dnnl_NCdhw32n32c,
        "dnnl_OI16i16o": dnnl_OI16i16o,
        "dnnl_OI16i32o": dnnl_OI16i32o,
        "dnnl_OI16i48o": dnnl_OI16i48o,
        "dnnl_OI16i64o": dnnl_OI16i64o,
        "dnnl_OI8i8o2i": dnnl_OI8i8o2i,
        "dnnl_OI8i16o2i": dnnl_OI8i16o2i,
        "dnnl_OI8i24o2i": dnnl_OI8i24o2i,
        "dnnl_OI8i32o2i": dnnl_OI8i32o2i,
        "dnnl_OI8i64o2i": dnnl_OI8i64o2i,
        "dnnl_OI4i8o4i": dnnl_OI4i8o4i,
        "dnnl_OI4i16o4i": dnnl_OI4i16o4i,
        "dnnl_OI4i24o4i": dnnl_OI4i24o4i,
        "dnnl_OI4i32o4i": dnnl_OI4i32o4i,
        "dnnl_OI4i64o4i": dnnl_OI4i64o4i,
        "dnnl_OI16i16o4i": dnnl_OI16i16o4i,
        "dnnl_OI8i32o": dnnl_OI8i32o,
        "dnnl_OI8i24o": dnnl_OI8i24o,
        "dnnl_OI8i16o": dnnl_OI8i16o,
        "dnnl_OI8i8o": dnnl_OI8i8o,
        "dnnl_IOw16o16i": dnnl_IOw16o16i,
        "dnnl_IOw16i16o": dnnl_IOw16i16o,
        "dnnl_OIw16i16o": dnnl_OIw16i16o,
        "dnnl_OIw16i32o": dnnl_OIw16i32o,
        "dnnl_OIw16i48o": dnnl_OIw16i48o,
        "dnnl_OIw16i64o": dnnl_OIw16i64o,
        "dnnl_OIw16o16i": dnnl_OIw16o16i,
        "dnnl_Oiw16o": dnnl_Oiw16o,
        "dnnl_OIw4i8o4i": dnnl_OIw4i8o4i,
        "dnnl_OIw4i16o4i": dnnl_OIw4i16o4i,
        "dnnl_OIw4i24o4i": dnnl_OIw4i24o4i,
        "dnnl_OIw4i32o4i": dnnl_OIw4i32o4i,
        "dnnl_OIw4i64o4i": dnnl_OIw4i64o4i,
        "dnnl_OIw2i8o4i": dnnl_OIw2i8o4i,
        "dnnl_OIw16i16o4i": dnnl_OIw16i16o4i,
        "dnnl_OIw16i16o2i": dnnl_OIw16i16o2i,
        "dnnl_OIw16o16i2o": dnnl_OIw16o16i2o,
        "dnnl_OIw4i4o": dnnl_OIw4i4o,
        "dnnl_OIw4o4i": dnnl_OIw4o4i,
        "dnnl_Oiw4o": dnnl_Oiw4o,
        "dnnl_OIw8i8o2i": dnnl_OIw8i8o2i,
        "dnnl_OIw8i16o2i": dnnl_OIw8i16o2i,
        "dnnl_OIw8i24o2i": dnnl_OIw8i24o2i,
        "dnnl_OIw8i32o2i": dnnl_OIw8i32o2i,
        "dnnl_OIw8i64o2i": dnnl_OIw8i64o2i,
        "dnnl_OIw8i8o": dnnl_OIw8i8o,
        "dnnl_OIw8o16i2o": dnnl_OIw8o16i2o,
        "dnnl_IOw8o16i2o": dnnl_IOw8o16i2o,
        "dnnl_OIw8o8i": dnnl_OIw8o8i,
        "dnnl_OIw8o4i": dnnl_OIw8o4i,
        "dnnl_Owi16o": dnnl_Owi16o,
        "dnnl_OwI16o2i": dnnl_OwI16o2i,
        "dnnl_OwI16o4i": dnnl_OwI16o4i,
        "dnnl_Iwo8i": dnnl_Iwo8i,
        "dnnl_IwO8i2o": dnnl_IwO8i2o,
        "dnnl_IwO8i4o": dnnl_IwO8i4o,
        "dnnl_Iwo16i": dnnl_Iwo16i,
        "dnnl_IwO16i2o": dnnl_IwO16i2o,
        "dnnl_IwO16i4o": dnnl_IwO16i4o,
        "dnnl_Iwo24i": dnnl_Iwo24i,
        "dnnl_IwO24i2o": dnnl_IwO24i2o,
        "dnnl_IwO24i4o": dnnl_IwO24i4o,
        "dnnl_Owi4o": dnnl_Owi4o,
        "dnnl_Owi8o": dnnl_Owi8o,
        "dnnl_OwI8o2i": dnnl_OwI8o2i,
        "dnnl_OIw8i32o": dnnl_OIw8i32o,
        "dnnl_OIw8i24o": dnnl_OIw8i24o,
        "dnnl_OIw8i16o": dnnl_OIw8i16o,
        "dnnl_OwI8o4i": dnnl_OwI8o4i,
        "dnnl_IOhw16i16o": dnnl_IOhw16i16o,
        "dnnl_IOhw16o16i": dnnl_IOhw16o16i,
        "dnnl_Ohwi16o": dnnl_Ohwi16o,
        "dnnl_OhwI16o2i": dnnl_OhwI16o2i,
        "dnnl_OhwI16o4i": dnnl_OhwI16o4i,
        "dnnl_Ihwo8i": dnnl_Ihwo8i,
        "dnnl_IhwO8i2o": dnnl_IhwO8i2o,
        "dnnl_IhwO8i4o": dnnl_IhwO8i4o,
        "dnnl_Ihwo16i": dnnl_Ihwo16i,
        "dnnl_IhwO16i2o": dnnl_IhwO16i2o,
        "dnnl_IhwO16i4o": dnnl_IhwO16i4o,
        "dnnl_Ihwo24i": dnnl_Ihwo24i,
        "dnnl_IhwO24i2o": dnnl_IhwO24i2o,
        "dnnl_IhwO24i4o": dnnl_IhwO24i4o,
        "dnnl_Ohwi24o": dnnl_Ohwi24o,
        "dnnl_Ohwi32o": dnnl_Ohwi32o,
        "dnnl_Ohwi4o": dnnl_Ohwi4o,
        "dnnl_Ohwi8o": dnnl_Ohwi8o,
        "dnnl_OhwI8o2i": dnnl_OhwI8o2i,
        "dnnl_OhwI8o4i": dnnl_OhwI8o4i,
        "dnnl_OIhw16i16o": dnnl_OIhw16i16o,
        "dnnl_OIhw16i32o": dnnl_OIhw16i32o,
        "dnnl_OIhw16i48o": dnnl_OIhw16i48o,
        "dnnl_OIhw16i64o": dnnl_OIhw16i64o,
        "dnnl_OIhw16o16i": dnnl_OIhw16o16i,
        "dnnl_Oihw16o": dnnl_Oihw16o,
        "dnnl_OIhw4i8o4i": dnnl_OIhw4i8o4i,
        "dnnl_OIhw4i16o4i": dnnl_OIhw4i16o4i,
        "dnnl_OIhw4i24o4i": dnnl_OIhw4i24o4i,
        "dnnl_OIhw4i32o4i": dnnl_OIhw4i32o4i,
        "dnnl_OIhw4i64o4i": dnnl_OIhw4i64o4i,
        "dnnl_OIhw16i16o4i": dnnl_OIhw16i16o4i,
        "dnnl_OIhw16i16o2i": dnnl_OIhw16i16o2i,
        "dnnl_OIhw16o16i2o": dnnl_OIhw16o16i2o,
        "dnnl_OIhw4i4o": dnnl_OIhw4i4o,
        "dnnl_OIhw4o4i": dnnl_OIhw4o4i,
        "dnnl_Oihw4o": dnnl_Oihw4o,
        "dnnl_OIhw8i8o2i": dnnl_OIhw8i8o2i,
        "dnnl_OIhw8i16o2i": dnnl_OIhw8i16o2i,
        "dnnl_OIhw8i32o2i": dnnl_OIhw8i32o2i,
        "dnnl_OIhw8i24o2i": dnnl_OIhw8i24o2i,
        "dnnl_OIhw8i64o2i": dnnl_OIhw8i64o2i,
        "dnnl_OIhw8i8o": dnnl_OIhw8i8o,
        "dnnl_OIhw8o16i2o": dnnl_OIhw8o16i2o,
        "dnnl_OIhw2i8o4i": dnnl_OIhw2i8o4i,
        "dnnl_IOhw8o16i2o": dnnl_IOhw8o16i2o,
        "dnnl_OIhw8o8i": dnnl_OIhw8o8i,
        "dnnl_OIhw8o4i": dnnl_OIhw8o4i,
        "dnnl_Owhi16o": dnnl_Owhi16o,
        "dnnl_OIhw8i32o": dnnl_OIhw8i32o,
        "dnnl_OIhw8i24o": dnnl_OIhw8i24o,
        "dnnl_OIhw8i16o": dnnl_OIhw8i16o,
        "dnnl_Odhwi16o": dnnl_Odhwi16o,
        "dnnl_OdhwI16o2i": dnnl_OdhwI16o2i,
        "dnnl_OdhwI16o4i": dnnl_OdhwI16o4i,
        "dnnl_Idhwo8i": dnnl_Idhwo8i,
        "dnnl_IdhwO8i2o": dnnl_IdhwO8i2o,
        "dnnl_IdhwO8i4o": dnnl_IdhwO8i4o,
        "dnnl_Idhwo16i": dnnl_Idhwo16i,
        "dnnl_IdhwO16i2o": dnnl_IdhwO16i2o,
        "dnnl_IdhwO16i4o": dnnl_IdhwO16i4o,
        "dnnl_Idhwo24i": dnnl_Idhwo24i,
        "dnnl_IdhwO24i2o": dnnl_IdhwO24i2o,
        "dnnl_IdhwO24i4o": dnnl_IdhwO24i4o,
        "dnnl_Odhwi4o": dnnl_Odhwi4o,
        "dnnl_Odhwi8o": dnnl_Odhwi8o,
        "dnnl_OdhwI8o2i": dnnl_OdhwI8o2i,
        "dnnl_OdhwI8o4i": dnnl_OdhwI8o4i,
        "dnnl_Odwhi16o": dnnl_Odwhi16o,
        "dnnl_OIdhw16i16o": dnnl_OIdhw16i16o,
        "dnnl_OIdhw16i32o": dnnl_OIdhw16i32o,
        "dnnl_OIdhw16i48o": dnnl_OIdhw16i48o,
        "dnnl_OIdhw16i64o": dnnl_OIdhw16i64o,
        "dnnl_OIdhw16o16i": dnnl_OIdhw16o16i,
        "dnnl_Oidhw16o": dnnl_Oidhw16o,
        "dnnl_OIdhw4i4o": dnnl_OIdhw4i4o,
        "dnnl_OIdhw4o4i": dnnl_OIdhw4o4i,
        "dnnl_Oidhw4o": dnnl_Oidhw4o,
        "dnnl_OIdhw8i8o2i": dnnl_OIdhw8i8o2i,
        "dnnl_OIdhw8i16o2i": dnnl_OIdhw8i16o2i,
        "dnnl_OIdhw8i32o2i": dnnl_OIdhw8i32o2i,
        "dnnl_OIdhw8i24o2i": dnnl_OIdhw8i24o2i,
        "dnnl_OIdhw8i64o2i": dnnl_OIdhw8i64o2i,
        "dnnl_OIdhw8i8o": dnnl_OIdhw8i8o,
        "dnnl_OIdhw8o16i2o": dnnl_OIdhw8o16i2o,
        "dnnl_IOdhw8o16i2o": dnnl_IOdhw8o16i2o,
        "dnnl_OIdhw4i8o4i": dnnl_OIdhw4i8o4i,
        "dnnl_OIdhw4i16o4i": dnnl_OIdhw4i16o4i,
        "dnnl_OIdhw4i24o4i": dnnl_OIdhw4i24o4i,
        "dnnl_OIdhw4i32o4i": dnnl_OIdhw4i32o4i,
        "dnnl_OIdhw4i64o4i": dnnl_OIdhw4i64o4i,
        "dnnl_OIdhw16i16o4i": dnnl_OIdhw16i16o4i,
        "dnnl_OIdhw16i16o2i": dnnl_OIdhw16i16o2i,
        "dnnl_OIdhw2i8o4i": dnnl_OIdhw2i8o4i,
        "dnnl_OIdhw8o8i": dnnl_OIdhw8o8i,
        "dnnl_OIdhw8o4i": dnnl_OIdhw8o4i,
        "dnnl_IOdhw16i16o": dnnl_IOdhw16i16o,
        "dnnl_OIdhw4o8i8o4i": dnnl_OIdhw4o8i8o4i,
        "dnnl_IOdhw16o16i": dnnl_IOdhw16o16i,
        "dnnl_OIdhw16o16i2o": dnnl_OIdhw16o16i2o,
        "dnnl_OIdhw8i32o": dnnl_OIdhw8i32o,
        "dnnl_OIdhw8i24o": dnnl_OIdhw8i24o,
        "dnnl_OIdhw8i16o": dnnl_OIdhw8i16o,
        "dnnl_Goiw16g": dnnl_Goiw16g,
        "dnnl_Goiw8g": dnnl_Goiw8g,
        "dnnl_Goiw4g": dnnl_Goiw4g,
        "dnnl_gIOw16o16i": dnnl_gIOw16o16i,
        "dnnl_gIOw16i16o": dnnl_gIOw16i16o,
        "dnnl_gOIw16i16o": dnnl_gOIw16i16o,
        "dnnl_gOIw16o16i": dnnl_gOIw16o16i,
        "dnnl_gOiw16o": dnnl_gOiw16o,
        "dnnl_gOIw4i16o4i": dnnl_gOIw4i16o4i,
        "dnnl_gOIw2i8o4i": dnnl_gOIw2i8o4i,
        "dnnl_gOIw16i16o4i": dnnl_gOIw16i16o4i,
        "dnnl_gOIw16i16o2i": dnnl_gOIw16i16o2i,
        "dnnl_gOIw16o16i2o": dnnl_gOIw16o16i2o,
        "dnnl_gOIw4i4o": dnnl_gOIw4i4o,
        "dnnl_gOIw4o4i": dnnl_gOIw4o4i,
        "dnnl_gOiw4o": dnnl_gOiw4o,
        "dnnl_gOIw8i16o2i": dnnl_gOIw8i16o2i,
        "dnnl_gOIw8i8o": dnnl_gOIw8i8o,
        "dnnl_gOIw8o16i2o": dnnl_gOIw8o16i2o,
        "dnnl_gIOw8o16i2o": dnnl_gIOw8o16i2o,
        "dnnl_gOIw8o8i": dnnl_gOIw8o8i,
        "dnnl_gOIw8o4i": dnnl_gOIw8o4i,
        "dnnl_gOwi16o": dnnl_gOwi16o,
        "dnnl_gOwI16o2i": dnnl_gOwI16o2i,
        "dnnl_gOwI16o4i": dnnl_gOwI16o4i,
        "dnnl_gIwo8i": dnnl_gIwo8i,
        "dnnl_gIwO8i2o": dnnl_gIwO8i2o,
        "dnnl_gIwO8i4o": dnnl_gIwO8i4o,
        "dnnl_gIwo16i": dnnl_gIwo16i,
        "dnnl_gIwO16i2o": dnnl_gIwO16i2o,
        "dnnl_gIwO16i4o": dnnl_gIwO16i4o,
        "dnnl_gIwo24i": dnnl_gIwo24i,
        "dnnl_gIwO24i2o": dnnl_gIwO24i2o,
        "dnnl_gIwO24i4o": dnnl_gIwO24i4o,
        "dnnl_gOwi4o": dnnl_gOwi4o,
        "dnnl_gOwi8o": dnnl_gOwi8o,
        "dnnl_gOwI8o2i": dnnl_gOwI8o2i,
        "dnnl_gOwI8o4i": dnnl_gOwI8o4i,
        "dnnl_Goiw32g": dnnl_Goiw32g,
        "dnnl_gOIw2i4o2i": dnnl_gOIw2i4o2i,
        "dnnl_gOIw2o4i2o": dnnl_gOIw2o4i2o,
        "dnnl_gOIw4i8o2i": dnnl_gOIw4i8o2i,
        "dnnl_gOIw4o8i2o": dnnl_gOIw4o8i2o,
        "dnnl_goIw4i": dnnl_goIw4i,
        "dnnl_goIw32i": dnnl_goIw32i,
        "dnnl_gIOhw16i16o": dnnl_gIOhw16i16o,
        "dnnl_gIOhw16o16i": dnnl_gIOhw16o16i,
        "dnnl_gOhwi16o": dnnl_gOhwi16o,
        "dnnl_gOhwI16o2i": dnnl_gOhwI16o2i,
        "dnnl_gOhwI16o4i": dnnl_gOhwI16o4i,
        "dnnl_gIhwo8i": dnnl_gIhwo8i,
        "dnnl_gIhwO8i2o": dnnl_gIhwO8i2o,
        "dnnl_gIhwO8i4o": dnnl_gIhwO8i4o,
        "dnnl_gIhwo16i": dnnl_gIhwo16i,
        "dnnl_gIhwO16i2o": dnnl_gIhwO16i2o,
        "dnnl_gIhwO16i4o": dnnl_gIhwO16i4o,
        "dnnl_gIhwo24i": dnnl_gIhwo24i,
        "dnnl_gIhwO24i2o": dnnl_gIhwO24i2o,
        "dnnl_gIhwO24i4o": dnnl_gIhwO24i4o,
        "dnnl_gOhwi32o": dnnl_gOhwi32o,
        "dnnl_gOhwi24o": dnnl_gOhwi24o,
        "dnnl_gOhwI24o2i": dnnl_gOhwI24o2i,
        "dnnl_gOhwI24o4i": dnnl_gOhwI24o4i,
        "dnnl_gOhwi4o": dnnl_gOhwi4o,
        "dnnl_gOhwi8o": dnnl_gOhwi8o,
        "dnnl_gOhwI8o2i": dnnl_gOhwI8o2i,
        "dnnl_gOhwI8o4i": dnnl_gOhwI8o4i,
        "dnnl_Goihw16g": dnnl_Goihw16g,
        "dnnl_gOIhw16i16o": dnnl_gOIhw16i16o,
        "dnnl_gOIhw16o16i": dnnl_gOIhw16o16i,
        "dnnl_gOihw16o": dnnl_gOihw16o,
        "dnnl_gOIhw2i8o4i": dnnl_gOIhw2i8o4i,
        "dnnl_gOIhw4i16o4i": dnnl_gOIhw4i16o4i,
        "dnnl_gOIhw16i16o4i": dnnl_gOIhw16i16o4i,
        "dnnl_gOIhw16i16o2i": dnnl_gOIhw16i16o2i,
        "dnnl_gOIhw16o16i2o": dnnl_gOIhw16o16i2o,
        "dnnl_gOIhw4i4o": dnnl_gOIhw4i4o,
        "dnnl_gOIhw4o4i": dnnl_gOIhw4o4i,
        "dnnl_gOihw4o": dnnl_gOihw4o,
        "dnnl_Goihw8g": dnnl_Goihw8g,
        "dnnl_Goihw4g": dnnl_Goihw4g,
        "dnnl_gOIhw8i16o2i": dnnl_gOIhw8i16o2i,
        "dnnl_gOIhw8i8o": dnnl_gOIhw8i8o,
        "dnnl_gOIhw8o16i2o": dnnl_gOIhw8o16i2o,
        "dnnl_gIOhw8o16i2o": dnnl_gIOhw8o16i2o,
        "dnnl_gOIhw8o8i": dnnl_gOIhw8o8i,
        "dnnl_gOIhw8o4i": dnnl_gOIhw8o4i,
        "dnnl_Goihw32g": dnnl_Goihw32g,
        "dnnl_gOwhi16o": dnnl_gOwhi16o,
        "dnnl_goIhw4i": dnnl_goIhw4i,
        "dnnl_goIhw32i": dnnl_goIhw32i,
        "dnnl_OIw4o8i8o4i": dnnl_OIw4o8i8o4i,
        "dnnl_OIhw4o8i8o4i": dnnl_OIhw4o8i8o4i,
        "dnnl_IOw4i8o8i4o": dnnl_IOw4i8o8i4o,
        "dnnl_IOhw4i8o8i4o": dnnl_IOhw4i8o8i4o,
        "dnnl_IOdhw4i8o8i4o": dnnl_IOdhw4i8o8i4o,
        "dnnl_OIhw2o8i8o2i": dnnl_OIhw2o8i8o2i,
        "dnnl_gOIw4o8i8o4i": dnnl_gOIw4o8i8o4i,
        "dnnl_gOIhw4o8i8o4i": dnnl_gOIhw4o8i8o4i,
        "dnnl_gOIdhw4o8i8o4i": dnnl_gOIdhw4o8i8o4i,
        "dnnl_gIOw4i8o8i4o": dnnl_gIOw4i8o8i4o,
        "dnnl_gIOhw4i8o8i4o": dnnl_gIOhw4i8o8i4o,
        "dnnl_gIOdhw4i8o8i4o": dnnl_gIOdhw4i8o8i4o,
        "dnnl_gOIhw2o8i8o2i": dnnl_gOIhw2o8i8o2i,
        "dnnl_gOIhw2i4o2i": dnnl_gOIhw2i4o2i,
        "dnnl_gOIhw2o4i2o": dnnl_gOIhw2o4i2o,
        "dnnl_gOIhw4i8o2i": dnnl_gOIhw4i8o2i,
        "dnnl_gOIhw4o8i2o": dnnl_gOIhw4o8i2o,
        "dnnl_gIOdhw16i16o": dnnl_gIOdhw16i16o,
        "dnnl_gIOdhw16o16i": dnnl_gIOdhw16o16i,
        "dnnl_gOdhwi16o": dnnl_gOdhwi16o,
        "dnnl_gOdhwI16o2i": dnnl_gOdhwI16o2i,
        "dnnl_gOdhwI16o4i": dnnl_gOdhwI16o4i,
        "dnnl_gIdhwo8i": dnnl_gIdhwo8i,
        "dnnl_gIdhwO8i2o": dnnl_gIdhwO8i2o,
        "dnnl_gIdhwO8i4o": dnnl_gIdhwO8i4o,
        "dnnl_gIdhwo16i": dnnl_gIdhwo16i,
        "dnnl_gIdhwO16i2o": dnnl_gIdhwO16i2o,
        "dnnl_gIdhwO16i4o": dnnl_gIdhwO16i4o,
        "dnnl_gIdhwo24i": dnnl_gIdhwo24i,
        "dnnl_gIdhwO24i2o": dnnl_gIdhwO24i2o,
        "dnnl_gIdhwO24i4o": dnnl_gIdhwO24i4o,
        "dnnl_gOdhwi4o": dnnl_gOdhwi4o,
        "dnnl_gOdhwi8o": dnnl_gOdhwi8o,
        "dnnl_gOdhwI8o2i": dnnl_gOdhwI8o2i,
        "dnnl_gOdhwI8o4i": dnnl_gOdhwI8o4i,
        "dnnl_gOdwhi16o": dnnl_gOdwhi16o,
        "dnnl_gOIdhw16i16o": dnnl_gOIdhw16i16o,
        "dnnl_gOIdhw4i16o4i": dnnl_gOIdhw4i16o4i,
        "dnnl_gOIdhw16i16o4i": dnnl_gOIdhw16i16o4i,
        "dnnl_gOIdhw2i8o4i": dnnl_gOIdhw2i8o4i,
        "dnnl_gOIdhw16i16o2i": dnnl_gOIdhw16i16o2i,
        "dnnl_gOIdhw16o16i": dnnl_gOIdhw16o16i,
        "dnnl_gOIdhw16o16i2o": dnnl_gOIdhw16o16i2o,
        "dnnl_gOidhw16o": dnnl_gOidhw16o,
        "dnnl_gOIdhw4i4o": dnnl_gOIdhw4i4o,
        "dnnl_gOIdhw4o4i": dnnl_gOIdhw4o4i,
        "dnnl_gOidhw4o": dnnl_gOidhw4o,
        "dnnl_gOIdhw8i16o2i": dnnl_gOIdhw8i16o2i,
        "dnnl_gOIdhw8i8o": dnnl_gOIdhw8i8o,
        "dnnl_gOIdhw8o16i2o": dnnl_gOIdhw8o16i2o,
        "dnnl_gIOdhw8o16i2o": dnnl_gIOdhw8o16i2o,
        "dnnl_gOIdhw8o8i": dnnl_gOIdhw8o8i,
        "dnnl_gOIdhw8o4i": dnnl_gOIdhw8o4i,
        "dnnl_Goidhw16g": dnnl_Goidhw16g,
        "dnnl_Goidhw32g": dnnl_Goidhw32g,
        "dnnl_gOIdhw2i4o2i": dnnl_gOIdhw2i4o2i,
        "dnnl_gOIdhw4i8o2i": dnnl_gOIdhw4i8o2i,
        "dnnl_gOIdhw2o4i2o": dnnl_gOIdhw2o4i2o,
        "dnnl_gOIdhw4o8i2o": dnnl_gOIdhw4o8i2o,
        "dnnl_goIdhw4i": dnnl_goIdhw4i,
        "dnnl_goIdhw32i": dnnl_goIdhw32i,
        "dnnl_Owi24o": dnnl_Owi24o,
        "dnnl_OwI24o2i": dnnl_OwI24o2i,
        "dnnl_OwI24o4i": dnnl_OwI24o4i,
        "dnnl_Owi32o": dnnl_Owi32o,
        "dnnl_OwI32o2i": dnnl_OwI32o2i,
        "dnnl_OwI32o4i": dnnl_OwI32o4i,
        "dnnl_Owi48o": dnnl_Owi48o,
        "dnnl_OwI48o2i": dnnl_OwI48o2i,
        "dnnl_OwI48o4i": dnnl_OwI48o4i,
        "dnnl_Owi64o": dnnl_Owi64o,
        "dnnl_OwI64o2i": dnnl_OwI64o2i,
        "dnnl_OwI64o4i": dnnl_OwI64o4i,
        "dnnl_Iwo32i": dnnl_Iwo32i,
        "dnnl_IwO32i2o": dnnl_IwO32i2o,
        "dnnl_IwO32i4o": dnnl_IwO32i4o,
        "dnnl_Iwo48i": dnnl_Iwo48i,
        "dnnl_IwO48i2o": dnnl_IwO48i2o,
        "dnnl_IwO48i4o": dnnl_IwO48i4o,
        "dnnl_Iwo64i": dnnl_Iwo64i,
        "dnnl_IwO64i2o": dnnl_IwO64i2o,
        "dnnl_IwO64i4o": dnnl_IwO64i4o,
        "dnnl_wIo2i": dnnl_wIo2i,
        "dnnl_wIo4i": dnnl_wIo4i,
        "dnnl_gOwi24o": dnnl_gOwi24o,
        "dnnl_gOwI24o2i": dnnl_gOwI24o2i,
        "dnnl_gOwI24o4i": dnnl_gOwI24o4i,
        "dnnl_gOwi32o": dnnl_gOwi32o,
        "dnnl_gOwI32o2i": dnnl_gOwI32o2i,
        "dnnl_gOwI32o4i": dnnl_gOwI32o4i,
        "dnnl_gOwi48o": dnnl_gOwi48o,
        "dnnl_gOwI48o2i": dnnl_gOwI48o2i,
        "dnnl_gOwI48o4i": dnnl_gOwI48o4i,
        "dnnl_gOwi64o": dnnl_gOwi64o,
        "dnnl_gOwI64o2i": dnnl_gOwI64o2i,
        "dnnl_gOwI64o4i": dnnl_gOwI64o4i,
        "dnnl_gIwo32i": dnnl_gIwo32i,
        "dnnl_gIwO32i2o": dnnl_gIwO32i2o,
        "dnnl_gIwO32i4o": dnnl_gIwO32i4o,
        "dnnl_gIwo48i": dnnl_gIwo48i,
        "dnnl_gIwO48i2o": dnnl_gIwO48i2o,
        "dnnl_gIwO48i4o": dnnl_gIwO48i4o,
        "dnnl_gIwo64i": dnnl_gIwo64i,
        "dnnl_gIwO64i2o": dnnl_gIwO64i2o,
        "dnnl_gIwO64i4o": dnnl_gIwO64i4o,
        "dnnl_gwio": dnnl_gwio,
        "dnnl_gwIo2i": dnnl_gwIo2i,
        "dnnl_gwIo4i": dnnl_gwIo4i,
        "dnnl_OhwI24o": dnnl_OhwI24o,
        "dnnl_OhwI24o2i": dnnl_OhwI24o2i,
        "dnnl_OhwI24o4i": dnnl_OhwI24o4i,
        "dnnl_OhwI32o": dnnl_OhwI32o,
        "dnnl_OhwI32o2i": dnnl_OhwI32o2i,
        "dnnl_OhwI32o4i": dnnl_OhwI32o4i,
        "dnnl_Ohwi48o": dnnl_Ohwi48o,
        "dnnl_OhwI48o2i": dnnl_OhwI48o2i,
        "dnnl_OhwI48o4i": dnnl_OhwI48o4i,
        "dnnl_Ohwi64o": dnnl_Ohwi64o,
        "dnnl_OhwI64o2i": dnnl_OhwI64o2i,
        "dnnl_OhwI64o4i": dnnl_OhwI64o4i,
        "dnnl_Ihwo32i": dnnl_Ihwo32i,
        "dnnl_IhwO32i2o": dnnl_IhwO32i2o,
        "dnnl_IhwO32i4o": dnnl_IhwO32i4o,
        "dnnl_Ihwo48i": dnnl_Ihwo48i,
        "dnnl_IhwO48i2o": dnnl_IhwO48i2o,
        "dnnl_IhwO48i4o": dnnl_IhwO48i4o,
        "dnnl_Ihwo64i": dnnl_Ihwo64i,
        "dnnl_IhwO64i2o": dnnl_IhwO64i2o,
        "dnnl_IhwO64i4o": dnnl_IhwO64i4o,
        "dnnl_hwIo2i": dnnl_hwIo2i,
        "dnnl_hwIo4i": dnnl_hwIo4i,
        "dnnl_gOhwI24o": dnnl_gOhwI24o,
        "dnnl_gOhwI32o": dnnl_gOhwI32o,
        "dnnl_gOhwI32o2i": dnnl_gOhwI32o2i,
        "dnnl_gOhwI32o4i": dnnl_gOhwI32o4i,
        "dnnl_gOhwi48o": dnnl_gOhwi48o,
        "dnnl_gOhwI48o2i": dnnl_gOhwI48o2i,
        "dnnl_gOhwI48o4i": dnnl_gOhwI48o4i,
        "dnnl_gOhwi64o": dnnl_gOhwi64o,
        "dnnl_gOhwI64o2i": dnnl_gOhwI64o2i,
        "dnnl_gOhwI64o4i": dnnl_gOhwI64o4i,
        "dnnl_gIhwo32i": dnnl_gIhwo32i,
        "dnnl_gIhwO32i2o": dnnl_gIhwO32i2o,
        "dnnl_gIhwO32i4o": dnnl_gIhwO32i4o,
        "dnnl_gIhwo48i": dnnl_gIhwo48i,
        "dnnl_gIhwO48i2o": dnnl_gIhwO48i2o,
        "dnnl_gIhwO48i4o": dnnl_gIhwO48i4o,
        "dnnl_gIhwo64i": dnnl_gIhwo64i,
        "dnnl_gIhwO64i2o": dnnl_gIhwO64i2o,
        "dnnl_gIhwO64i4o": dnnl_gIhwO64i4o,
        "dnnl_ghwio": dnnl_ghwio,
        "dnnl_ghwIo2i": dnnl_ghwIo2i,
        "dnnl_ghwIo4i": dnnl_ghwIo4i,
        "dnnl_Odhwi24o": dnnl_Odhwi24o,
        "dnnl_OdhwI24o2i": dnnl_OdhwI24o2i,
        "dnnl_OdhwI24o4i": dnnl_OdhwI24o4i,
        "dnnl_Odhwi32o": dnnl_Odhwi32o,
        "dnnl_OdhwI32o2i": dnnl_OdhwI32o2i,
        "dnnl_OdhwI32o4i": dnnl_OdhwI32o4i,
        "dnnl_Odhwi48o": dnnl_Odhwi48o,
        "dnnl_OdhwI48o2i": dnnl_OdhwI48o2i,
        "dnnl_OdhwI48o4i": dnnl_OdhwI48o4i,
        "dnnl_Odhwi64o": dnnl_Odhwi64o,
        "dnnl_OdhwI64o2i": dnnl_OdhwI64o2i,
        "dnnl_OdhwI64o4i": dnnl_OdhwI64o4i,
        "dnnl_Idhwo32i": dnnl_Idhwo32i,
        "dnnl_IdhwO32i2o": dnnl_IdhwO32i2o,
        "dnnl_IdhwO32i4o": dnnl_IdhwO32i4o,
        "dnnl_Idhwo48i": dnnl_Idhwo48i,
        "dnnl_IdhwO48i2o": dnnl_IdhwO48i2o,
        "dnnl_IdhwO48i4o": dnnl_IdhwO48i4o,
        "dnnl_Idhwo64i": dnnl_Idhwo64i,
        "dnnl_IdhwO64i2o": dnnl_IdhwO64i2o,
        "dnnl_IdhwO64i4o": dnnl_IdhwO64i4o,
        "dnnl_dhwIo2i": dnnl_dhwIo2i,
        "dnnl_dhwIo4i": dnnl_dhwIo4i,
        "dnnl_gOdhwi24o": dnnl_gOdhwi24o,
        "dnnl_gOdhwI24o2i": dnnl_gOdhwI24o2i,
        "dnnl_gOdhwI24o4i": dnnl_gOdhwI24o4i,
        "dnnl_gOdhwi32o": dnnl_gOdhwi32o,
        "dnnl_gOdhwI32o2i": dnnl_gOdhwI32o2i,
        "dnnl_gOdhwI32o4i": dnnl_gOdhwI32o4i,
        "dnnl_gOdhwi48o": dnnl_gOdhwi48o,
        "dnnl_gOdhwI48o2i": dnnl_gOdhwI48o2i,
        "dnnl_gOdhwI48o4i": dnnl_gOdhwI48o4i,
        "dnnl_gOdhwi64o": dnnl_gOdhwi64o,
        "dnnl_gOdhwI64o2i": dnnl_gOdhwI64o2i,
        "dnnl_gOdhwI64o4i": dnnl_gOdhwI64o4i,
        "dnnl_gIdhwo32i": dnnl_gIdhwo32i,
        "dnnl_gIdhwO32i2o": dnnl_gIdhwO32i2o,
        "dnnl_gIdhwO32i4o": dnnl_gIdhwO32i4o,
        "dnnl_gIdhwo48i": dnnl_gIdhwo48i,
        "dnnl_gIdhwO48i2o": dnnl_gIdhwO48i2o,
        "dnnl_gIdhwO48i4o": dnnl_gIdhwO48i4o,
        "dnnl_gIdhwo64i": dnnl_gIdhwo64i,
        "dnnl_gIdhwO64i2o": dnnl_gIdhwO64i2o,
        "dnnl_gIdhwO64i4o": dnnl_gIdhwO64i4o,
        "dnnl_gdhwio": dnnl_gdhwio,
        "dnnl_gdhwIo2i": dnnl_gdhwIo2i,
        "dnnl_gdhwIo4i": dnnl_gdhwIo4i,
        "dnnl_OI16i32o4i": dnnl_OI16i32o4i,
        "dnnl_OI16i48o4i": dnnl_OI16i48o4i,
        "dnnl_OI16i64o4i": dnnl_OI16i64o4i,
        "dnnl_OI16i16o2i": dnnl_OI16i16o2i,
        "dnnl_OI16i32o2i": dnnl_OI16i32o2i,
        "dnnl_OI16i48o2i": dnnl_OI16i48o2i,
        "dnnl_OI16i64o2i": dnnl_OI16i64o2i,
        "dnnl_OIw16i32o4i": dnnl_OIw16i32o4i,
        "dnnl_OIw16i48o4i": dnnl_OIw16i48o4i,
        "dnnl_OIw16i64o4i": dnnl_OIw16i64o4i,
        "dnnl_OIw16i32o2i": dnnl_OIw16i32o2i,
        "dnnl_OIw16i48o2i": dnnl_OIw16i48o2i,
        "dnnl_OIw16i64o2i": dnnl_OIw16i64o2i,
        "dnnl_OIhw16i32o4i": dnnl_OIhw16i32o4i,
        "dnnl_OIhw16i48o4i": dnnl_OIhw16i48o4i,
        "dnnl_OIhw16i64o4i": dnnl_OIhw16i64o4i,
        "dnnl_OIhw16i32o2i": dnnl_OIhw16i32o2i,
        "dnnl_OIhw16i48o2i": dnnl_OIhw16i48o2i,
        "dnnl_OIhw16i64o2i": dnnl_OIhw16i64o2i,
        "dnnl_OIdhw16i32o4i": dnnl_OIdhw16i32o4i,
        "dnnl_OIdhw16i48o4i": dnnl_OIdhw16i48o4i,
        "dnnl_OIdhw16i64o4i": dnnl_OIdhw16i64o4i,
        "dnnl_OIdhw16i32o2i": dnnl_OIdhw16i32o2i,
        "dnnl_OIdhw16i48o2i": dnnl_OIdhw16i48o2i,
        "dnnl_OIdhw16i64o2i": dnnl_OIdhw16i64o2i,
        "dnnl_OwI16i16o2i": dnnl_OwI16i16o2i,
        "dnnl_OwI16i16o4i": dnnl_OwI16i16o4i,
        "dnnl_OhwI16i16o2i": dnnl_OhwI16i16o2i,
        "dnnl_OhwI16i16o4i": dnnl_OhwI16i16o4i,
        "dnnl_OdhwI16i16o2i": dnnl_OdhwI16i16o2i,
        "dnnl_OdhwI16i16o4i": dnnl_OdhwI16i16o4i,
        "dnnl_IwO16o16i2o": dnnl_IwO16o16i2o,
        "dnnl_IwO16o16i4o": dnnl_IwO16o16i4o,
        "dnnl_IhwO16o16i2o": dnnl_IhwO16o16i2o,
        "dnnl_IhwO16o16i4o": dnnl_IhwO16o16i4o,
        "dnnl_IdhwO16o16i2o": dnnl_IdhwO16o16i2o,
        "dnnl_IdhwO16o16i4o": dnnl_IdhwO16o16i4o,
        "dnnl_gOwI16i16o2i": dnnl_gOwI16i16o2i,
        "dnnl_gOwI16i16o4i": dnnl_gOwI16i16o4i,
        "dnnl_gOhwI16i16o2i": dnnl_gOhwI16i16o2i,
        "dnnl_gOhwI16i16o4i": dnnl_gOhwI16i16o4i,
        "dnnl_gOdhwI16i16o2i": dnnl_gOdhwI16i16o2i,
        "dnnl_gOdhwI16i16o4i": dnnl_gOdhwI16i16o4i,
        "dnnl_gIwO16o16i2o": dnnl_gIwO16o16i2o,
        "dnnl_gIwO16o16i4o": dnnl_gIwO16o16i4o,
        "dnnl_gIhwO16o16i2o": dnnl_gIhwO16o16i2o,
        "dnnl_gIhwO16o16i4o": dnnl_gIhwO16o16i4o,
        "dnnl_gIdhwO16o16i2o": dnnl_gIdhwO16o16i2o,
        "dnnl_gIdhwO16o16i4o": dnnl_gIdhwO16o16i4o,
        "dnnl_OwI16i32o2i": dnnl_OwI16i32o2i,
        "dnnl_OwI16i32o4i": dnnl_OwI16i32o4i,
        "dnnl_OwI16i48o2i": dnnl_OwI16i48o2i,
        "dnnl_OwI16i48o4i": dnnl_OwI16i48o4i,
        "dnnl_OwI16i64o2i": dnnl_OwI16i64o2i,
        "dnnl_OwI16i64o4i": dnnl_OwI16i64o4i,
        "dnnl_IwO16o32i2o": dnnl_IwO16o32i2o,
        "dnnl_IwO16o32i4o": dnnl_IwO16o32i4o,
        "dnnl_IwO16o48i2o": dnnl_IwO16o48i2o,
        "dnnl_IwO16o48i4o": dnnl_IwO16o48i4o,
        "dnnl_IwO16o64i2o": dnnl_IwO16o64i2o,
        "dnnl_IwO16o64i4o": dnnl_IwO16o64i4o,
        "dnnl_gOwI16i32o2i": dnnl_gOwI16i32o2i,
        "dnnl_gOwI16i32o4i": dnnl_gOwI16i32o4i,
        "dnnl_gOwI16i48o2i": dnnl_gOwI16i48o2i,
        "dnnl_gOwI16i48o4i": dnnl_gOwI16i48o4i,
        "dnnl_gOwI16i64o2i": dnnl_gOwI16i64o2i,
        "dnnl_gOwI16i64o4i": dnnl_gOwI16i64o4i,
        "dnnl_gIwO16o32i2o": dnnl_gIwO16o32i2o,
        "dnnl_gIwO16o32i4o": dnnl_gIwO16o32i4o,
        "dnnl_gIwO16o48i2o": dnnl_gIwO16o48i2o,
        "dnnl_gIwO16o48i4o": dnnl_gIwO16o48i4o,
        "dnnl_gIwO16o64i2o": dnnl_gIwO16o64i2o,
        "dnnl_gIwO16o64i4o": dnnl_gIwO16o64i4o,
        "dnnl_OhwI16i32o2i": dnnl_OhwI16i32o2i,
        "dnnl_OhwI16i32o4i": dnnl_OhwI16i32o4i,
        "dnnl_OhwI16i48o2i": dnnl_OhwI16i48o2i,
        "dnnl_OhwI16i48o4i": dnnl_OhwI16i48o4i,
        "dnnl_OhwI16i64o2i": dnnl_OhwI16i64o2i,
        "dnnl_OhwI16i64o4i": dnnl_OhwI16i64o4i,
        "dnnl_IhwO16o32i2o": dnnl_IhwO16o32i2o,
        "dnnl_IhwO16o32i4o": dnnl_IhwO16o32i4o,
        "dnnl_IhwO16o48i2o": dnnl_IhwO16o48i2o,
        "dnnl_IhwO16o48i4o": dnnl_IhwO16o48i4o,
        "dnnl_IhwO16o64i2o": dnnl_IhwO16o64i2o,
        "dnnl_IhwO16o64i4o": dnnl_IhwO16o64i4o,
        "dnnl_gOhwI16i32o2i": dnnl_gOhwI16i32o2i,
        "dnnl_gOhwI16i32o4i": dnnl_gOhwI16i32o4i,
        "dnnl_gOhwI16i48o2i": dnnl_gOhwI16i48o2i,
        "dnnl_gOhwI16i48o4i": dnnl_gOhwI16i48o4i,
        "dnnl_gOhwI16i64o2i": dnnl_gOhwI16i64o2i,
        "dnnl_gOhwI16i64o4i": dnnl_gOhwI16i64o4i,
        "dnnl_gIhwO16o32i2o": dnnl_gIhwO16o32i2o,
        "dnnl_gIhwO16o32i4o": dnnl_gIhwO16o32i4o,
        "dnnl_gIhwO16o48i2o": dnnl_gIhwO16o48i2o,
        "dnnl_gIhwO16o48i4o": dnnl_gIhwO16o48i4o,
        "dnnl_gIhwO16o64i2o": dnnl_gIhwO16o64i2o,
        "dnnl_gIhwO16o64i4o": dnnl_gIhwO16o64i4o,
        "dnnl_OdhwI16i32o2i": dnnl_OdhwI16i32o2i,
        "dnnl_OdhwI16i32o4i": dnnl_OdhwI16i32o4i,
        "dnnl_OdhwI16i48o2i": dnnl_OdhwI16i48o2i,
        "dnnl_OdhwI16i48o4i": dnnl_OdhwI16i48o4i,
        "dnnl_OdhwI16i64o2i": dnnl_OdhwI16i64o2i,
        "dnnl_OdhwI16i64o4i": dnnl_OdhwI16i64o4i,
        "dnnl_IdhwO16o32i2o": dnnl_IdhwO16o32i2o,
        "dnnl_IdhwO16o32i4o": dnnl_IdhwO16o32i4o,
        "dnnl_IdhwO16o48i2o": dnnl_IdhwO16o48i2o,
        "dnnl_IdhwO16o48i4o": dnnl_IdhwO16o48i4o,
        "dnnl_IdhwO16o64i2o": dnnl_IdhwO16o64i2o,
        "dnnl_IdhwO16o64i4o": dnnl_IdhwO16o64i4o,
        "dnnl_gOdhwI16i32o2i": dnnl_gOdhwI16i32o2i,
        "dnnl_gOdhwI16i32o4i": dnnl_gOdhwI16i32o4i,
        "dnnl_gOdhwI16i48o2i": dnnl_gOdhwI16i48o2i,
        "dnnl_gOdhwI16i48o4i": dnnl_gOdhwI16i48o4i,
        "dnnl_gOdhwI16i64o2i": dnnl_gOdhwI16i64o2i,
        "dnnl_gOdhwI16i64o4i": dnnl_gOdhwI16i64o4i,
        "dnnl_gIdhwO16o32i2o": dnnl_gIdhwO16o32i2o,
        "dnnl_gIdhwO16o32i4o": dnnl_gIdhwO16o32i4o,
        "dnnl_gIdhwO16o48i2o": dnnl_gIdhwO16o48i2o,
        "dnnl_gIdhwO16o48i4o": dnnl_gIdhwO16o48i4o,
        "dnnl_gIdhwO16o64i2o": dnnl_gIdhwO16o64i2o,
        "dnnl_gIdhwO16o64i4o": dnnl_gIdhwO16o64i4o,
        "dnnl_hwioG16g": dnnl_hwioG16g,
        "dnnl_hwioG8g": dnnl_hwioG8g,
        "dnnl_NCdhw40n16c": dnnl_NCdhw40n16c,
        "dnnl_NCw40n16c": dnnl_NCw40n16c,
        "dnnl_NChw40n16c": dnnl_NChw40n16c,
        "dnnl_NCw40n32c": dnnl_NCw40n32c,
        "dnnl_NChw40n32c": dnnl_NChw40n32c,
        "dnnl_NCdhw40n32c": dnnl_NCdhw40n32c,
        "dnnl_OIdhw4o8i8o2i": dnnl_OIdhw4o8i8o2i,
        "dnnl_OIhw4o8i8o2i": dnnl_OIhw4o8i8o2i,
        "dnnl_OIw4o8i8o2i": dnnl_OIw4o8i8o2i,
        "dnnl_gOIdhw4o8i8o2i": dnnl_gOIdhw4o8i8o2i,
        "dnnl_gOIhw4o8i8o2i": dnnl_gOIhw4o8i8o2i,
        "dnnl_gOIw4o8i8o2i": dnnl_gOIw4o8i8o2i,
        "dnnl_IOdhw4i8o8i2o": dnnl_IOdhw4i8o8i2o,
        "dnnl_IOhw4i8o8i2o": dnnl_IOhw4i8o8i2o,
        "dnnl_IOw4i8o8i2o": dnnl_IOw4i8o8i2o,
        "dnnl_gIOdhw4i8o8i2o": dnnl_gIOdhw4i8o8i2o,
        "dnnl_gIOhw4i8o8i2o": dnnl_gIOhw4i8o8i2o,
        "dnnl_gIOw4i8o8i2o": dnnl_gIOw4i8o8i2o,
        "dnnl_NCw2c32n8c": dnnl_NCw2c32n8c,
        "dnnl_NChw2c32n8c": dnnl_NChw2c32n8c,
        "dnnl_NCdhw2c32n8c": dnnl_NCdhw2c32n8c,
        "dnnl_OIw2i8o16i4o": dnnl_OIw2i8o16i4o,
        "dnnl_OIhw2i8o16i4o": dnnl_OIhw2i8o16i4o,
        "dnnl_OIdhw2i8o16i4o": dnnl_OIdhw2i8o16i4o,
        "dnnl_OIw2o8i16o4i": dnnl_OIw2o8i16o4i,
        "dnnl_OIw2o8i16o2i": dnnl_OIw2o8i16o2i,
        "dnnl_IOw2i8o16i4o": dnnl_IOw2i8o16i4o,
        "dnnl_IOw2i8o16i2o": dnnl_IOw2i8o16i2o,
        "dnnl_OIhw2o8i16o4i": dnnl_OIhw2o8i16o4i,
        "dnnl_OIhw2o8i16o2i": dnnl_OIhw2o8i16o2i,
        "dnnl_IOhw2i8o16i4o": dnnl_IOhw2i8o16i4o,
        "dnnl_IOhw2i8o16i2o": dnnl_IOhw2i8o16i2o,
        "dnnl_OIdhw2o8i16o4i": dnnl_OIdhw2o8i16o4i,
        "dnnl_OIdhw2o8i16o2i": dnnl_OIdhw2o8i16o2i,
        "dnnl_IOdhw2i8o16i4o": dnnl_IOdhw2i8o16i4o,
        "dnnl_IOdhw2i8o16i2o": dnnl_IOdhw2i8o16i2o,
        "dnnl_gOIw2o8i16o2i": dnnl_gOIw2o8i16o2i,
        "dnnl_gIOw2i8o16i2o": dnnl_gIOw2i8o16i2o,
        "dnnl_gIOhw2i8o16i2o": dnnl_gIOhw2i8o16i2o,
        "dnnl_gIOdhw2i8o16i2o": dnnl_gIOdhw2i8o16i2o,
        "dnnl_gOIhw2o8i16o2i": dnnl_gOIhw2o8i16o2i,
        "dnnl_gOIdhw2o8i16o2i": dnnl_gOIdhw2o8i16o2i,
        "dnnl_gOIw2o8i16o4i": dnnl_gOIw2o8i16o4i,
        "dnnl_gOIhw2o8i16o4i": dnnl_gOIhw2o8i16o4i,
    },
    "dnnl_prop_kind_t": {
        "dnnl_prop_kind_undef": dnnl_prop_kind_undef,
        "dnnl_forward_training": dnnl_forward_training,
        "dnnl_forward_inference": dnnl_forward_inference,
        "dnnl_forward": dnnl_forward,
        "dnnl_backward": dnnl_backward,
        "dnnl_backward_data": dnnl_backward_data,
        "dnnl_backward_weights": dnnl_backward_weights,
        "dnnl_backward_bias": dnnl_backward_bias,
    },
    "dnnl_primitive_kind_t": {
        "dnnl_undefined_primitive": dnnl_undefined_primitive,
        "dnnl_reorder": dnnl_reorder,
        "dnnl_shuffle": dnnl_shuffle,
        "dnnl_concat": dnnl_concat,
        "dnnl_sum": dnnl_sum,
        "dnnl_convolution": dnnl_convolution,
        "dnnl_deconvolution": dnnl_deconvolution,
        "dnnl_eltwise": dnnl_eltwise,
        "dnnl_lrn": dnnl_lrn,
        "dnnl_batch_normalization": dnnl_batch_normalization,
        "dnnl_inner_product": dnnl_inner_product,
        "dnnl_rnn": dnnl_rnn,
        "dnnl_gemm": dnnl_gemm,
        "dnnl_binary": dnnl_binary,
        "dnnl_matmul": dnnl_matmul,
        "dnnl_resampling": dnnl_resampling,
        "dnnl_pooling": dnnl_pooling,
        "dnnl_reduction": dnnl_reduction,
        "dnnl_prelu": dnnl_prelu,
        "dnnl_softmax": dnnl_softmax,
        "dnnl_layer_normalization": dnnl_layer_normalization,
        "dnnl_primitive_kind_max": dnnl_primitive_kind_max,
    },
    "dnnl_alg_kind_t": {
        "dnnl_alg_kind_undef": dnnl_alg_kind_undef,
        "dnnl_convolution_direct": dnnl_convolution_direct,
        "dnnl_convolution_winograd": dnnl_convolution_winograd,
        "dnnl_convolution_auto": dnnl_convolution_auto,
        "dnnl_deconvolution_direct": dnnl_deconvolution_direct,
        "dnnl_deconvolution_winograd": dnnl_deconvolution_winograd,
        "dnnl_eltwise_relu": dnnl_eltwise_relu,
        "dnnl_eltwise_tanh": dnnl_eltwise_tanh,
        "dnnl_eltwise_elu": dnnl_eltwise_elu,
        "dnnl_eltwise_square": dnnl_eltwise_square,
        "dnnl_eltwise_abs": dnnl_eltwise_abs,
        "dnnl_eltwise_sqrt": dnnl_eltwise_sqrt,
        "dnnl_eltwise_linear": dnnl_eltwise_linear,
        "dnnl_eltwise_soft_relu": dnnl_eltwise_soft_relu,
        "dnnl_eltwise_hardsigmoid": dnnl_eltwise_hardsigmoid,
        "dnnl_eltwise_logistic": dnnl_eltwise_logistic,
        "dnnl_eltwise_exp": dnnl_eltwise_exp,
        "dnnl_eltwise_gelu_tanh": dnnl_eltwise_gelu_tanh,
        "dnnl_eltwise_swish": dnnl_eltwise_swish,
        "dnnl_eltwise_log": dnnl_eltwise_log,
        "dnnl_eltwise_clip": dnnl_eltwise_clip,
        "dnnl_eltwise_clip_v2": dnnl_eltwise_clip_v2,
        "dnnl_eltwise_pow": dnnl_eltwise_pow,
        "dnnl_eltwise_gelu_erf": dnnl_eltwise_gelu_erf,
        "dnnl_eltwise_round": dnnl_eltwise_round,
        "dnnl_eltwise_mish": dnnl_eltwise_mish,
        "dnnl_eltwise_hardswish": dnnl_eltwise_hardswish,
        "dnnl_eltwise_relu_use_dst_for_bwd": dnnl_eltwise_relu_use_dst_for_bwd,
        "dnnl_eltwise_tanh_use_dst_for_bwd": dnnl_eltwise_tanh_use_dst_for_bwd,
        "dnnl_eltwise_elu_use_dst_for_bwd": dnnl_eltwise_elu_use_dst_for_bwd,
        "dnnl_eltwise_sqrt_use_dst_for_bwd": dnnl_eltwise_sqrt_use_dst_for_bwd,
        "dnnl_eltwise_logistic_use_dst_for_bwd": dnnl_eltwise_logistic_use_dst_for_bwd,
        "dnnl_eltwise_exp_use_dst_for_bwd": dnnl_eltwise_exp_use_dst_for_bwd,
        "dnnl_eltwise_clip_v2_use_dst_for_bwd": dnnl_eltwise_clip_v2_use_dst_for_bwd,
        "dnnl_pooling_max": dnnl_pooling_max,
        "dnnl_pooling_avg_include_padding": dnnl_pooling_avg_include_padding,
        "dnnl_pooling_avg_exclude_padding": dnnl_pooling_avg_exclude_padding,
        "dnnl_lrn_across_channels": dnnl_lrn_across_channels,
        "dnnl_lrn_within_channel": dnnl_lrn_within_channel,
        "dnnl_vanilla_rnn": dnnl_vanilla_rnn,
        "dnnl_vanilla_lstm": dnnl_vanilla_lstm,
        "dnnl_vanilla_gru": dnnl_vanilla_gru,
        "dnnl_lbr_gru": dnnl_lbr_gru,
        "dnnl_vanilla_augru": dnnl_vanilla_augru,
        "dnnl_lbr_augru": dnnl_lbr_augru,
        "dnnl_binary_add": dnnl_binary_add,
        "dnnl_binary_mul": dnnl_binary_mul,
        "dnnl_binary_max": dnnl_binary_max,
        "dnnl_binary_min": dnnl_binary_min,
        "dnnl_binary_div": dnnl_binary_div,
        "dnnl_binary_sub": dnnl_binary_sub,
        "dnnl_binary_ge": dnnl_binary_ge,
        "dnnl_binary_gt": dnnl_binary_gt,
        "dnnl_binary_le": dnnl_binary_le,
        "dnnl_binary_lt": dnnl_binary_lt,
        "dnnl_binary_eq": dnnl_binary_eq,
        "dnnl_binary_ne": dnnl_binary_ne,
        "dnnl_resampling_nearest": dnnl_resampling_nearest,
        "dnnl_resampling_linear": dnnl_resampling_linear,
        "dnnl_reduction_max": dnnl_reduction_max,
        "dnnl_reduction_min": dnnl_reduction_min,
        "dnnl_reduction_sum": dnnl_reduction_sum,
        "dnnl_reduction_mul": dnnl_reduction_mul,
        "dnnl_reduction_mean": dnnl_reduction_mean,
        "dnnl_reduction_norm_lp_max": dnnl_reduction_norm_lp_max,
        "dnnl_reduction_norm_lp_sum": dnnl_reduction_norm_lp_sum,
        "dnnl_reduction_norm_lp_power_p_max": dnnl_reduction_norm_lp_power_p_max,
        "dnnl_reduction_norm_lp_power_p_sum": dnnl_reduction_norm_lp_power_p_sum,
        "dnnl_softmax_accurate": dnnl_softmax_accurate,
        "dnnl_softmax_log": dnnl_softmax_log,
    },
    "dnnl_normalization_flags_t": {
        "dnnl_normalization_flags_none": dnnl_normalization_flags_none,
        "dnnl_use_global_stats": dnnl_use_global_stats,
        "dnnl_use_scale": dnnl_use_scale,
        "dnnl_use_shift": dnnl_use_shift,
        "dnnl_fuse_norm_relu": dnnl_fuse_norm_relu,
        "dnnl_fuse_norm_add_relu": dnnl_fuse_norm_add_relu,
    },
    "dnnl_rnn_flags_t": {
        "dnnl_rnn_flags_undef": dnnl_rnn_flags_undef,
        "dnnl_rnn_flags_diff_weights_overwrite": dnnl_rnn_flags_diff_weights_overwrite,
    },
    "dnnl_rnn_direction_t": {
        "dnnl_rnn_direction_undef": dnnl_rnn_direction_undef,
        "dnnl_unidirectional_left2right": dnnl_unidirectional_left2right,
        "dnnl_unidirectional_right2left": dnnl_unidirectional_right2left,
        "dnnl_bidirectional_concat": dnnl_bidirectional_concat,
        "dnnl_bidirectional_sum": dnnl_bidirectional_sum,
    },
    "dnnl_scratchpad_mode_t": {
        "dnnl_scratchpad_mode_library": dnnl_scratchpad_mode_library,
        "dnnl_scratchpad_mode_user": dnnl_scratchpad_mode_user,
    },
    "dnnl_query_t": {
        "dnnl_query_undef": dnnl_query_undef,
        "dnnl_query_engine": dnnl_query_engine,
        "dnnl_query_primitive_kind": dnnl_query_primitive_kind,
        "dnnl_query_num_of_inputs_s32": dnnl_query_num_of_inputs_s32,
        "dnnl_query_num_of_outputs_s32": dnnl_query_num_of_outputs_s32,
        "dnnl_query_time_estimate_f64": dnnl_query_time_estimate_f64,
        "dnnl_query_memory_consumption_s64": dnnl_query_memory_consumption_s64,
        "dnnl_query_scratchpad_engine": dnnl_query_scratchpad_engine,
        "dnnl_query_impl_info_str": dnnl_query_impl_info_str,
        "dnnl_query_reorder_src_engine": dnnl_query_reorder_src_engine,
        "dnnl_query_reorder_dst_engine": dnnl_query_reorder_dst_engine,
        "dnnl_query_prop_kind": dnnl_query_prop_kind,
        "dnnl_query_cache_blob_id_size_s64": dnnl_query_cache_blob_id_size_s64,
        "dnnl_query_cache_blob_id": dnnl_query_cache_blob_id,
        "dnnl_query_strides": dnnl_query_strides,
        "dnnl_query_dilations": dnnl_query_dilations,
        "dnnl_query_padding_l": dnnl_query_padding_l,
        "dnnl_query_padding_r": dnnl_query_padding_r,
        "dnnl_query_epsilon_f32": dnnl_query_epsilon_f32,
        "dnnl_query_flags": dnnl_query_flags,
        "dnnl_query_alg_kind": dnnl_query_alg_kind,
        "dnnl_query_alpha_f32": dnnl_query_alpha_f32,
        "dnnl_query_beta_f32": dnnl_query_beta_f32,
        "dnnl_query_axis_s32": dnnl_query_axis_s32,
        "dnnl_query_local_size_s64": dnnl_query_local_size_s64,
        "dnnl_query_k_f32": dnnl_query_k_f32,
        "dnnl_query_p_f32": dnnl_query_p_f32,
        "dnnl_query_factors": dnnl_query_factors,
        "dnnl_query_cell_kind": dnnl_query_cell_kind,
        "dnnl_query_direction": dnnl_query_direction,
        "dnnl_query_activation_kind": dnnl_query_activation_kind,
        "dnnl_query_kernel": dnnl_query_kernel,
        "dnnl_query_group_size_s64": dnnl_query_group_size_s64,
        "dnnl_query_some_md": dnnl_query_some_md,
        "dnnl_query_src_md": dnnl_query_src_md,
        "dnnl_query_diff_src_md": dnnl_query_diff_src_md,
        "dnnl_query_weights_md": dnnl_query_weights_md,
        "dnnl_query_diff_weights_md": dnnl_query_diff_weights_md,
        "dnnl_query_dst_md": dnnl_query_dst_md,
        "dnnl_query_diff_dst_md": dnnl_query_diff_dst_md,
        "dnnl_query_workspace_md": dnnl_query_workspace_md,
        "dnnl_query_scratchpad_md": dnnl_query_scratchpad_md,
        "dnnl_query_exec_arg_md": dnnl_query_exec_arg_md,
        "dnnl_query_ndims_s32": dnnl_query_ndims_s32,
        "dnnl_query_dims": dnnl_query_dims,
        "dnnl_query_data_type": dnnl_query_data_type,
        "dnnl_query_submemory_offset_s64": dnnl_query_submemory_offset_s64,
        "dnnl_query_padded_dims": dnnl_query_padded_dims,
        "dnnl_query_padded_offsets": dnnl_query_padded_offsets,
        "dnnl_query_format_kind": dnnl_query_format_kind,
        "dnnl_query_inner_nblks_s32": dnnl_query_inner_nblks_s32,
        "dnnl_query_inner_blks": dnnl_query_inner_blks,
        "dnnl_query_inner_idxs": dnnl_query_inner_idxs,
        "dnnl_query_sparse_encoding": dnnl_query_sparse_encoding,
        "dnnl_query_nnz_s64": dnnl_query_nnz_s64,
        "dnnl_query_num_handles_s32": dnnl_query_num_handles_s32,
        "dnnl_query_max": dnnl_query_max,
    },
    "dnnl_cpu_isa_t": {
        "dnnl_cpu_isa_default": dnnl_cpu_isa_default,
        "dnnl_cpu_isa_sse41": dnnl_cpu_isa_sse41,
        "dnnl_cpu_isa_avx": dnnl_cpu_isa_avx,
        "dnnl_cpu_isa_avx2": dnnl_cpu_isa_avx2,
        "dnnl_cpu_isa_avx2_vnni": dnnl_cpu_isa_avx2_vnni,
        "dnnl_cpu_isa_avx2_vnni_2": dnnl_cpu_isa_avx2_vnni_2,
        "dnnl_cpu_isa_avx512_core": dnnl_cpu_isa_avx512_core,
        "dnnl_cpu_isa_avx512_core_vnni": dnnl_cpu_isa_avx512_core_vnni,
        "dnnl_cpu_isa_avx512_core_bf16": dnnl_cpu_isa_avx512_core_bf16,
        "dnnl_cpu_isa_avx512_core_fp16": dnnl_cpu_isa_avx512_core_fp16,
        "dnnl_cpu_isa_avx512_core_amx": dnnl_cpu_isa_avx512_core_amx,
        "dnnl_cpu_isa_avx512_core_amx_fp16": dnnl_cpu_isa_avx512_core_amx_fp16,
    },
    "dnnl_cpu_isa_hints_t": {
        "dnnl_cpu_isa_no_hints": dnnl_cpu_isa_no_hints,
        "dnnl_cpu_isa_prefer_ymm": dnnl_cpu_isa_prefer_ymm,
    },
}

MACROS = {
    "DNNL_OTHER": {
        "DNNL_MAX_NDIMS": DNNL_MAX_NDIMS,
        "DNNL_RUNTIME_DIM_VAL": DNNL_RUNTIME_DIM_VAL,
        "DNNL_RUNTIME_SIZE_VAL": DNNL_RUNTIME_SIZE_VAL,
        "DNNL_RUNTIME_F32_VAL_BITS": DNNL_RUNTIME_F32_VAL_BITS,
        "DNNL_RUNTIME_S32_VAL": DNNL_RUNTIME_S32_VAL,
        "DNNL_MEMORY_NONE": DNNL_MEMORY_NONE,
        "DNNL_MEMORY_ALLOCATE": DNNL_MEMORY_ALLOCATE,
    },
    "DNNL_ARG": {
        "DNNL_ARG_SRC_0": DNNL_ARG_SRC_0,
        "DNNL_ARG_SRC": DNNL_ARG_SRC,
        "DNNL_ARG_SRC_LAYER": DNNL_ARG_SRC_LAYER,
        "DNNL_ARG_FROM": DNNL_ARG_FROM,
        "DNNL_ARG_SRC_1": DNNL_ARG_SRC_1,
        "DNNL_ARG_SRC_ITER": DNNL_ARG_SRC_ITER,
        "DNNL_ARG_SRC_2": DNNL_ARG_SRC_2,
        "DNNL_ARG_SRC_ITER_C": DNNL_ARG_SRC_ITER_C,
        "DNNL_ARG_SRC_3": DNNL_ARG_SRC_3,
        "DNNL_ARG_AUGRU_ATTENTION": DNNL_ARG_AUGRU_ATTENTION,
        "DNNL_ARG_DST_0": DNNL_ARG_DST_0,
        "DNNL_ARG_DST": DNNL_ARG_DST,
        "DNNL_ARG_TO": DNNL_ARG_TO,
        "DNNL_ARG_DST_LAYER": DNNL_ARG_DST_LAYER,
        "DNNL_ARG_DST_1": DNNL_ARG_DST_1,
        "DNNL_ARG_DST_ITER": DNNL_ARG_DST_ITER,
        "DNNL_ARG_DST_2": DNNL_ARG_DST_2,
        "DNNL_ARG_DST_ITER_C": DNNL_ARG_DST_ITER_C,
        "DNNL_ARG_WEIGHTS_0": DNNL_ARG_WEIGHTS_0,
        "DNNL_ARG_WEIGHTS": DNNL_ARG_WEIGHTS,
        "DNNL_ARG_WEIGHTS_LAYER": DNNL_ARG_WEIGHTS_LAYER,
        "DNNL_ARG_WEIGHTS_1": DNNL_ARG_WEIGHTS_1,
        "DNNL_ARG_WEIGHTS_ITER": DNNL_ARG_WEIGHTS_ITER,
        "DNNL_ARG_WEIGHTS_2": DNNL_ARG_WEIGHTS_2,
        "DNNL_ARG_WEIGHTS_PEEPHOLE": DNNL_ARG_WEIGHTS_PEEPHOLE,
        "DNNL_ARG_WEIGHTS_3": DNNL_ARG_WEIGHTS_3,
        "DNNL_ARG_WEIGHTS_PROJECTION": DNNL_ARG_WEIGHTS_PROJECTION,
        "DNNL_ARG_BIAS": DNNL_ARG_BIAS,
        "DNNL_ARG_MEAN": DNNL_ARG_MEAN,
        "DNNL_ARG_VARIANCE": DNNL_ARG_VARIANCE,
        "DNNL_ARG_SCALE": DNNL_ARG_SCALE,
        "DNNL_ARG_SHIFT": DNNL_ARG_SHIFT,
        "DNNL_ARG_WORKSPACE": DNNL_ARG_WORKSPACE,
        "DNNL_ARG_SCRATCHPAD": DNNL_ARG_SCRATCHPAD,
        "DNNL_ARG_DIFF_SRC_0": DNNL_ARG_DIFF_SRC_0,
        "DNNL_ARG_DIFF_SRC": DNNL_ARG_DIFF_SRC,
        "DNNL_ARG_DIFF_SRC_LAYER": DNNL_ARG_DIFF_SRC_LAYER,
        "DNNL_ARG_DIFF_SRC_1": DNNL_ARG_DIFF_SRC_1,
        "DNNL_ARG_DIFF_SRC_ITER": DNNL_ARG_DIFF_SRC_ITER,
        "DNNL_ARG_DIFF_SRC_2": DNNL_ARG_DIFF_SRC_2,
        "DNNL_ARG_DIFF_SRC_ITER_C": DNNL_ARG_DIFF_SRC_ITER_C,
        "DNNL_ARG_DIFF_SRC_3": DNNL_ARG_DIFF_SRC_3,
        "DNNL_ARG_DIFF_AUGRU_ATTENTION": DNNL_ARG_DIFF_AUGRU_ATTENTION,
        "DNNL_ARG_DIFF_DST_0": DNNL_ARG_DIFF_DST_0,
        "DNNL_ARG_DIFF_DST": DNNL_ARG_DIFF_DST,
        "DNNL_ARG_DIFF_DST_LAYER": DNNL_ARG_DIFF_DST_LAYER,
        "DNNL_ARG_DIFF_DST_1": DNNL_ARG_DIFF_DST_1,
        "DNNL_ARG_DIFF_DST_ITER": DNNL_ARG_DIFF_DST_ITER,
        "DNNL_ARG_DIFF_DST_2": DNNL_ARG_DIFF_DST_2,
        "DNNL_ARG_DIFF_DST_ITER_C": DNNL_ARG_DIFF_DST_ITER_C,
        "DNNL_ARG_DIFF_WEIGHTS_0": DNNL_ARG_DIFF_WEIGHTS_0,
        "DNNL_ARG_DIFF_WEIGHTS": DNNL_ARG_DIFF_WEIGHTS,
        "DNNL_ARG_DIFF_WEIGHTS_LAYER": DNNL_ARG_DIFF_WEIGHTS_LAYER,
        "DNNL_ARG_DIFF_WEIGHTS_1": DNNL_ARG_DIFF_WEIGHTS_1,
        "DNNL_ARG_DIFF_WEIGHTS_ITER": DNNL_ARG_DIFF_WEIGHTS_ITER,
        "DNNL_ARG_DIFF_WEIGHTS_2": DNNL_ARG_DIFF_WEIGHTS_2,
        "DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE": DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE,
        "DNNL_ARG_DIFF_WEIGHTS_3": DNNL_ARG_DIFF_WEIGHTS_3,
        "DNNL_ARG_DIFF_WEIGHTS_PROJECTION": DNNL_ARG_DIFF_WEIGHTS_PROJECTION,
        "DNNL_ARG_DIFF_BIAS": DNNL_ARG_DIFF_BIAS,
        "DNNL_ARG_DIFF_SCALE": DNNL_ARG_DIFF_SCALE,
        "DNNL_ARG_DIFF_SHIFT": DNNL_ARG_DIFF_SHIFT,
        "DNNL_ARG_ATTR_OUTPUT_SCALES": DNNL_ARG_ATTR_OUTPUT_SCALES,
        "DNNL_ARG_MULTIPLE_SRC": DNNL_ARG_MULTIPLE_SRC,
        "DNNL_ARG_MULTIPLE_DST": DNNL_ARG_MULTIPLE_DST,
        "DNNL_ARG_ATTR_SCALES": DNNL_ARG_ATTR_SCALES,
        "DNNL_ARG_ATTR_ZERO_POINTS": DNNL_ARG_ATTR_ZERO_POINTS,
        "DNNL_ARG_ATTR_POST_OP_DW": DNNL_ARG_ATTR_POST_OP_DW,
        "DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE": DNNL_ARG_ATTR_MULTIPLE_POST_OP_BASE,
    },
    "DNNL_JIT_PROFILE": {
        "DNNL_JIT_PROFILE_NONE": DNNL_JIT_PROFILE_NONE,
        "DNNL_JIT_PROFILE_VTUNE": DNNL_JIT_PROFILE_VTUNE,
        "DNNL_JIT_PROFILE_LINUX_PERFMAP": DNNL_JIT_PROFILE_LINUX_PERFMAP,
        "DNNL_JIT_PROFILE_LINUX_JITDUMP": DNNL_JIT_PROFILE_LINUX_JITDUMP,
        "DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC": DNNL_JIT_PROFILE_LINUX_JITDUMP_USE_TSC,
        "DNNL_JIT_PROFILE_LINUX_PERF": DNNL_JIT_PROFILE_LINUX_PERF,
    },
    "DNNL_RUNTIME": {
        "DNNL_RUNTIME_NONE": DNNL_RUNTIME_NONE,
        "DNNL_RUNTIME_SEQ": DNNL_RUNTIME_SEQ,
        "DNNL_RUNTIME_OMP": DNNL_RUNTIME_OMP,
        "DNNL_RUNTIME_TBB": DNNL_RUNTIME_TBB,
        "DNNL_RUNTIME_THREADPOOL": DNNL_RUNTIME_THREADPOOL,
        "DNNL_RUNTIME_OCL": DNNL_RUNTIME_OCL,
        "DNNL_RUNTIME_SYCL": DNNL_RUNTIME_SYCL,
        "DNNL_RUNTIME_DPCPP": DNNL_RUNTIME_DPCPP,
    },
}

# enumerators declared equal to another (chains resolved)
ALIASES = {
    "dnnl_stream_default_flags": "dnnl_stream_in_order",
    "dnnl_x": "dnnl_a",
    "dnnl_nc": "dnnl_ab",
    "dnnl_cn": "dnnl_ba",
    "dnnl_tn": "dnnl_ab",
    "dnnl_nt": "dnnl_ba",
    "dnnl_ncw": "dnnl_abc",
    "dnnl_nwc": "dnnl_acb",
    "dnnl_nchw": "dnnl_abcd",
    "dnnl_nhwc": "dnnl_acdb",
    "dnnl_chwn": "dnnl_bcda",
    "dnnl_ncdhw": "dnnl_abcde",
    "dnnl_ndhwc": "dnnl_acdeb",
    "dnnl_oi": "dnnl_ab",
    "dnnl_io": "dnnl_ba",
    "dnnl_oiw": "dnnl_abc",
    "dnnl_owi": "dnnl_acb",
    "dnnl_wio": "dnnl_cba",
    "dnnl_woi": "dnnl_cab",
    "dnnl_iwo": "dnnl_bca",
    "dnnl_oihw": "dnnl_abcd",
    "dnnl_hwio": "dnnl_cdba",
    "dnnl_hwoi": "dnnl_cdab",
    "dnnl_ohwi": "dnnl_acdb",
    "dnnl_ihwo": "dnnl_bcda",
    "dnnl_iohw": "dnnl_bacd",
    "dnnl_oidhw": "dnnl_abcde",
    "dnnl_iodhw": "dnnl_bacde",
    "dnnl_dhwio": "dnnl_cdeba",
    "dnnl_dhwoi": "dnnl_cdeab",
    "dnnl_odhwi": "dnnl_acdeb",
    "dnnl_idhwo": "dnnl_bcdea",
    "dnnl_goiw": "dnnl_abcd",
    "dnnl_gowi": "dnnl_abdc",
    "dnnl_wigo": "dnnl_dcab",
    "dnnl_goihw": "dnnl_abcde",
    "dnnl_gohwi": "dnnl_abdec",
    "dnnl_hwigo": "dnnl_decab",
    "dnnl_giohw": "dnnl_acbde",
    "dnnl_goidhw": "dnnl_abcdef",
    "dnnl_godhwi": "dnnl_abdefc",
    "dnnl_giodhw": "dnnl_acbdef",
    "dnnl_dhwigo": "dnnl_defcab",
    "dnnl_tnc": "dnnl_abc",
    "dnnl_ntc": "dnnl_bac",
    "dnnl_ldnc": "dnnl_abcd",
    "dnnl_ldigo": "dnnl_abcde",
    "dnnl_ldgoi": "dnnl_abdec",
    "dnnl_ldio": "dnnl_abcd",
    "dnnl_ldoi": "dnnl_abdc",
    "dnnl_ldgo": "dnnl_abcd",
    "dnnl_ldOi16o": "dnnl_abDc16d",
    "dnnl_ldOi32o": "dnnl_abDc32d",
    "dnnl_ldOI32o4i": "dnnl_abDC32d4c",
    "dnnl_ldIo32i": "dnnl_abCd32c",
    "dnnl_ldgOi16o": "dnnl_abdEc16e",
    "dnnl_ldgOi32o": "dnnl_abdEc32e",
    "dnnl_ldgOI32o2i": "dnnl_abdEC32e2c",
    "dnnl_ldgOI32o4i": "dnnl_abdEC32e4c",
    "dnnl_ldgOI64o2i": "dnnl_abdEC64e2c",
    "dnnl_ldgOI64o4i": "dnnl_abdEC64e4c",
    "dnnl_ldgIo16i": "dnnl_abdCe16c",
    "dnnl_ldgIo32i": "dnnl_abdCe32c",
    "dnnl_ldgIO32i2o": "dnnl_abdCE32c2e",
    "dnnl_nCdhw32c": "dnnl_aBcde32b",
    "dnnl_nCdhw16c": "dnnl_aBcde16b",
    "dnnl_nCdhw4c": "dnnl_aBcde4b",
    "dnnl_nCdhw8c": "dnnl_aBcde8b",
    "dnnl_nChw32c": "dnnl_aBcd32b",
    "dnnl_nChw16c": "dnnl_aBcd16b",
    "dnnl_nChw4c": "dnnl_aBcd4b",
    "dnnl_nChw8c": "dnnl_aBcd8b",
    "dnnl_nCw32c": "dnnl_aBc32b",
    "dnnl_nCw16c": "dnnl_aBc16b",
    "dnnl_nCw4c": "dnnl_aBc4b",
    "dnnl_nCw8c": "dnnl_aBc8b",
    "dnnl_NCw16n16c": "dnnl_ABc16a16b",
    "dnnl_NCdhw16n16c": "dnnl_ABcde16a16b",
    "dnnl_NChw16n16c": "dnnl_ABcd16a16b",
    "dnnl_NCw32n16c": "dnnl_ABc32a16b",
    "dnnl_NChw32n16c": "dnnl_ABcd32a16b",
    "dnnl_NChw16n32c": "dnnl_ABcd16a32b",
    "dnnl_NCdhw32n16c": "dnnl_ABcde32a16b",
    "dnnl_NCw32n32c": "dnnl_ABc32a32b",
    "dnnl_NChw32n32c": "dnnl_ABcd32a32b",
    "dnnl_NCdhw32n32c": "dnnl_ABcde32a32b",
    "dnnl_OI16i16o": "dnnl_AB16b16a",
    "dnnl_OI16i32o": "dnnl_AB16b32a",
    "dnnl_OI16i48o": "dnnl_AB16b48a",
    "dnnl_OI16i64o": "dnnl_AB16b64a",
    "dnnl_OI8i8o2i": "dnnl_AB8b8a2b",
    "dnnl_OI8i16o2i": "dnnl_AB8b16a2b",
    "dnnl_OI8i24o2i": "dnnl_AB8b24a2b",
    "dnnl_OI8i32o2i": "dnnl_AB8b32a2b",
    "dnnl_OI8i64o2i": "dnnl_AB8b64a2b",
    "dnnl_OI4i8o4i": "dnnl_AB4b8a4b",
    "dnnl_OI4i16o4i": "dnnl_AB4b16a4b",
    "dnnl_OI4i24o4i": "dnnl_AB4b24a4b",
    "dnnl_OI4i32o4i": "dnnl_AB4b32a4b",
    "dnnl_OI4i64o4i": "dnnl_AB4b64a4b",
    "dnnl_OI16i16o4i": "dnnl_AB16b16a4b",
    "dnnl_OI8i32o": "dnnl_AB8b32a",
    "dnnl_OI8i24o": "dnnl_AB8b24a",
    "dnnl_OI8i16o": "dnnl_AB8b16a",
    "dnnl_OI8i8o": "dnnl_AB8b8a",
    "dnnl_IOw16o16i": "dnnl_BAc16a16b",
    "dnnl_IOw16i16o": "dnnl_BAc16b16a",
    "dnnl_OIw16i16o": "dnnl_ABc16b16a",
    "dnnl_OIw16i32o": "dnnl_ABc16b32a",
    "dnnl_OIw16i48o": "dnnl_ABc16b48a",
    "dnnl_OIw16i64o": "dnnl_ABc16b64a",
    "dnnl_OIw16o16i": "dnnl_ABc16a16b",
    "dnnl_Oiw16o": "dnnl_Abc16a",
    "dnnl_OIw4i8o4i": "dnnl_ABc4b8a4b",
    "dnnl_OIw4i16o4i": "dnnl_ABc4b16a4b",
    "dnnl_OIw4i24o4i": "dnnl_ABc4b24a4b",
    "dnnl_OIw4i32o4i": "dnnl_ABc4b32a4b",
    "dnnl_OIw4i64o4i": "dnnl_ABc4b64a4b",
    "dnnl_OIw2i8o4i": "dnnl_ABc2b8a4b",
    "dnnl_OIw16i16o4i": "dnnl_ABc16b16a4b",
    "dnnl_OIw16i16o2i": "dnnl_ABc16b16a2b",
    "dnnl_OIw16o16i2o": "dnnl_ABc16a16b2a",
    "dnnl_OIw4i4o": "dnnl_ABc4b4a",
    "dnnl_OIw4o4i": "dnnl_ABc4a4b",
    "dnnl_Oiw4o": "dnnl_Abc4a",
    "dnnl_OIw8i8o2i": "dnnl_ABc8b8a2b",
    "dnnl_OIw8i16o2i": "dnnl_ABc8b16a2b",
    "dnnl_OIw8i24o2i": "dnnl_ABc8b24a2b",
    "dnnl_OIw8i32o2i": "dnnl_ABc8b32a2b",
    "dnnl_OIw8i64o2i": "dnnl_ABc8b64a2b",
    "dnnl_OIw8i8o": "dnnl_ABc8b8a",
    "dnnl_OIw8o16i2o": "dnnl_ABc8a16b2a",
    "dnnl_IOw8o16i2o": "dnnl_BAc8a16b2a",
    "dnnl_OIw8o8i": "dnnl_ABc8a8b",
    "dnnl_OIw8o4i": "dnnl_ABc8a4b",
    "dnnl_Owi16o": "dnnl_Acb16a",
    "dnnl_OwI16o2i": "dnnl_AcB16a2b",
    "dnnl_OwI16o4i": "dnnl_AcB16a4b",
    "dnnl_Iwo8i": "dnnl_Bca8b",
    "dnnl_IwO8i2o": "dnnl_BcA8b2a",
    "dnnl_IwO8i4o": "dnnl_BcA8b4a",
    "dnnl_Iwo16i": "dnnl_Bca16b",
    "dnnl_IwO16i2o": "dnnl_BcA16b2a",
    "dnnl_IwO16i4o": "dnnl_BcA16b4a",
    "dnnl_Iwo24i": "dnnl_Bca24b",
    "dnnl_IwO24i2o": "dnnl_BcA24b2a",
    "dnnl_IwO24i4o": "dnnl_BcA24b4a",
    "dnnl_Owi4o": "dnnl_Acb4a",
    "dnnl_Owi8o": "dnnl_Acb8a",
    "dnnl_OwI8o2i": "dnnl_AcB8a2b",
    "dnnl_OIw8i32o": "dnnl_ABc8b32a",
    "dnnl_OIw8i24o": "dnnl_ABc8b24a",
    "dnnl_OIw8i16o": "dnnl_ABc8b16a",
    "dnnl_OwI8o4i": "dnnl_AcB8a4b",
    "dnnl_IOhw16i16o": "dnnl_BAcd16b16a",
    "dnnl_IOhw16o16i": "dnnl_BAcd16a16b",
    "dnnl_Ohwi16o": "dnnl_Acdb16a",
    "dnnl_OhwI16o2i": "dnnl_AcdB16a2b",
    "dnnl_OhwI16o4i": "dnnl_AcdB16a4b",
    "dnnl_Ihwo8i": "dnnl_Bcda8b",
    "dnnl_IhwO8i2o": "dnnl_BcdA8b2a",
    "dnnl_IhwO8i4o": "dnnl_BcdA8b4a",
    "dnnl_Ihwo16i": "dnnl_Bcda16b",
    "dnnl_IhwO16i2o": "dnnl_BcdA16b2a",
    "dnnl_IhwO16i4o": "dnnl_BcdA16b4a",
    "dnnl_Ihwo24i": "dnnl_Bcda24b",
    "dnnl_IhwO24i2o": "dnnl_BcdA24b2a",
    "dnnl_IhwO24i4o": "dnnl_BcdA24b4a",
    "dnnl_Ohwi24o": "dnnl_Acdb24a",
    "dnnl_Ohwi32o": "dnnl_Acdb32a",
    "dnnl_Ohwi4o": "dnnl_Acdb4a",
    "dnnl_Ohwi8o": "dnnl_Acdb8a",
    "dnnl_OhwI8o2i": "dnnl_AcdB8a2b",
    "dnnl_OhwI8o4i": "dnnl_AcdB8a4b",
    "dnnl_OIhw16i16o": "dnnl_ABcd16b16a",
    "dnnl_OIhw16i32o": "dnnl_ABcd16b32a",
    "dnnl_OIhw16i48o": "dnnl_ABcd16b48a",
    "dnnl_OIhw16i64o": "dnnl_ABcd16b64a",
    "dnnl_OIhw16o16i": "dnnl_ABcd16a16b",
    "dnnl_Oihw16o": "dnnl_Abcd16a",
    "dnnl_OIhw4i8o4i": "dnnl_ABcd4b8a4b",
    "dnnl_OIhw4i16o4i": "dnnl_ABcd4b16a4b",
    "dnnl_OIhw4i24o4i": "dnnl_ABcd4b24a4b",
    "dnnl_OIhw4i32o4i": "dnnl_ABcd4b32a4b",
    "dnnl_OIhw4i64o4i": "dnnl_ABcd4b64a4b",
    "dnnl_OIhw16i16o4i": "dnnl_ABcd16b16a4b",
    "dnnl_OIhw16i16o2i": "dnnl_ABcd16b16a2b",
    "dnnl_OIhw16o16i2o": "dnnl_ABcd16a16b2a",
    "dnnl_OIhw4i4o": "dnnl_ABcd4b4a",
    "dnnl_OIhw4o4i": "dnnl_ABcd4a4b",
    "dnnl_Oihw4o": "dnnl_Abcd4a",
    "dnnl_OIhw8i8o2i": "dnnl_ABcd8b8a2b",
    "dnnl_OIhw8i16o2i": "dnnl_ABcd8b16a2b",
    "dnnl_OIhw8i32o2i": "dnnl_ABcd8b32a2b",
    "dnnl_OIhw8i24o2i": "dnnl_ABcd8b24a2b",
    "dnnl_OIhw8i64o2i": "dnnl_ABcd8b64a2b",
    "dnnl_OIhw8i8o": "dnnl_ABcd8b8a",
    "dnnl_OIhw8o16i2o": "dnnl_ABcd8a16b2a",
    "dnnl_OIhw2i8o4i": "dnnl_ABcd2b8a4b",
    "dnnl_IOhw8o16i2o": "dnnl_BAcd8a16b2a",
    "dnnl_OIhw8o8i": "dnnl_ABcd8a8b",
    "dnnl_OIhw8o4i": "dnnl_ABcd8a4b",
    "dnnl_Owhi16o": "dnnl_Adcb16a",
    "dnnl_OIhw8i32o": "dnnl_ABcd8b32a",
    "dnnl_OIhw8i24o": "dnnl_ABcd8b24a",
    "dnnl_OIhw8i16o": "dnnl_ABcd8b16a",
    "dnnl_Odhwi16o": "dnnl_Acdeb16a",
    "dnnl_OdhwI16o2i": "dnnl_AcdeB16a2b",
    "dnnl_OdhwI16o4i": "dnnl_AcdeB16a4b",
    "dnnl_Idhwo8i": "dnnl_Bcdea8b",
    "dnnl_IdhwO8i2o": "dnnl_BcdeA8b2a",
    "dnnl_IdhwO8i4o": "dnnl_BcdeA8b4a",
    "dnnl_Idhwo16i": "dnnl_Bcdea16b",
    "dnnl_IdhwO16i2o": "dnnl_BcdeA16b2a",
    "dnnl_IdhwO16i4o": "dnnl_BcdeA16b4a",
    "dnnl_Idhwo24i": "dnnl_Bcdea24b",
    "dnnl_IdhwO24i2o": "dnnl_BcdeA24b2a",
    "dnnl_IdhwO24i4o": "dnnl_BcdeA24b4a",
    "dnnl_Odhwi4o": "dnnl_Acdeb4a",
    "dnnl_Odhwi8o": "dnnl_Acdeb8a",
    "dnnl_OdhwI8o2i": "dnnl_AcdeB8a2b",
    "dnnl_OdhwI8o4i": "dnnl_AcdeB8a4b",
    "dnnl_Odwhi16o": "dnnl_Acedb16a",
    "dnnl_OIdhw16i16o": "dnnl_ABcde16b16a",
    "dnnl_OIdhw16i32o": "dnnl_ABcde16b32a",
    "dnnl_OIdhw16i48o": "dnnl_ABcde16b48a",
    "dnnl_OIdhw16i64o": "dnnl_ABcde16b64a",
    "dnnl_OIdhw16o16i": "dnnl_ABcde16a16b",
    "dnnl_Oidhw16o": "dnnl_Abcde16a",
    "dnnl_OIdhw4i4o": "dnnl_ABcde4b4a",
    "dnnl_OIdhw4o4i": "dnnl_ABcde4a4b",
    "dnnl_Oidhw4o": "dnnl_Abcde4a",
    "dnnl_OIdhw8i8o2i": "dnnl_ABcde8b8a2b",
    "dnnl_OIdhw8i16o2i": "dnnl_ABcde8b16a2b",
    "dnnl_OIdhw8i32o2i": "dnnl_ABcde8b32a2b",
    "dnnl_OIdhw8i24o2i": "dnnl_ABcde8b24a2b",
    "dnnl_OIdhw8i64o2i": "dnnl_ABcde8b64a2b",
    "dnnl_OIdhw8i8o": "dnnl_ABcde8b8a",
    "dnnl_OIdhw8o16i2o": "dnnl_ABcde8a16b2a",
    "dnnl_IOdhw8o16i2o": "dnnl_BAcde8a16b2a",
    "dnnl_OIdhw4i8o4i": "dnnl_ABcde4b8a4b",
    "dnnl_OIdhw4i16o4i": "dnnl_ABcde4b16a4b",
    "dnnl_OIdhw4i24o4i": "dnnl_ABcde4b24a4b",
    "dnnl_OIdhw4i32o4i": "dnnl_ABcde4b32a4b",
    "dnnl_OIdhw4i64o4i": "dnnl_ABcde4b64a4b",
    "dnnl_OIdhw16i16o4i": "dnnl_ABcde16b16a4b",
    "dnnl_OIdhw16i16o2i": "dnnl_ABcde16b16a2b",
    "dnnl_OIdhw2i8o4i": "dnnl_ABcde2b8a4b",
    "dnnl_OIdhw8o8i": "dnnl_ABcde8a8b",
    "dnnl_OIdhw8o4i": "dnnl_ABcde8a4b",
    "dnnl_IOdhw16i16o": "dnnl_BAcde16b16a",
    "dnnl_OIdhw4o8i8o4i": "dnnl_ABcde4a8b8a4b",
    "dnnl_IOdhw16o16i": "dnnl_BAcde16a16b",
    "dnnl_OIdhw16o16i2o": "dnnl_ABcde16a16b2a",
    "dnnl_OIdhw8i32o": "dnnl_ABcde8b32a",
    "dnnl_OIdhw8i24o": "dnnl_ABcde8b24a",
    "dnnl_OIdhw8i16o": "dnnl_ABcde8b16a",
    "dnnl_Goiw16g": "dnnl_Abcd16a",
    "dnnl_Goiw8g": "dnnl_Abcd8a",
    "dnnl_Goiw4g": "dnnl_Abcd4a",
    "dnnl_gIOw16o16i": "dnnl_aCBd16b16c",
    "dnnl_gIOw16i16o": "dnnl_aCBd16c16b",
    "dnnl_gOIw16i16o": "dnnl_aBCd16c16b",
    "dnnl_gOIw16o16i": "dnnl_aBCd16b16c",
    "dnnl_gOiw16o": "dnnl_aBcd16b",
    "dnnl_gOIw4i16o4i": "dnnl_aBCd4c16b4c",
    "dnnl_gOIw2i8o4i": "dnnl_aBCd2c8b4c",
    "dnnl_gOIw16i16o4i": "dnnl_aBCd16c16b4c",
    "dnnl_gOIw16i16o2i": "dnnl_aBCd16c16b2c",
    "dnnl_gOIw16o16i2o": "dnnl_aBCd16b16c2b",
    "dnnl_gOIw4i4o": "dnnl_aBCd4c4b",
    "dnnl_gOIw4o4i": "dnnl_aBCd4b4c",
    "dnnl_gOiw4o": "dnnl_aBcd4b",
    "dnnl_gOIw8i16o2i": "dnnl_aBCd8c16b2c",
    "dnnl_gOIw8i8o": "dnnl_aBCd8c8b",
    "dnnl_gOIw8o16i2o": "dnnl_aBCd8b16c2b",
    "dnnl_gIOw8o16i2o": "dnnl_aCBd8b16c2b",
    "dnnl_gOIw8o8i": "dnnl_aBCd8b8c",
    "dnnl_gOIw8o4i": "dnnl_aBCd8b4c",
    "dnnl_gOwi16o": "dnnl_aBdc16b",
    "dnnl_gOwI16o2i": "dnnl_aBdC16b2c",
    "dnnl_gOwI16o4i": "dnnl_aBdC16b4c",
    "dnnl_gIwo8i": "dnnl_aCdb8c",
    "dnnl_gIwO8i2o": "dnnl_aCdB8c2b",
    "dnnl_gIwO8i4o": "dnnl_aCdB8c4b",
    "dnnl_gIwo16i": "dnnl_aCdb16c",
    "dnnl_gIwO16i2o": "dnnl_aCdB16c2b",
    "dnnl_gIwO16i4o": "dnnl_aCdB16c4b",
    "dnnl_gIwo24i": "dnnl_aCdb24c",
    "dnnl_gIwO24i2o": "dnnl_aCdB24c2b",
    "dnnl_gIwO24i4o": "dnnl_aCdB24c4b",
    "dnnl_gOwi4o": "dnnl_aBdc4b",
    "dnnl_gOwi8o": "dnnl_aBdc8b",
    "dnnl_gOwI8o2i": "dnnl_aBdC8b2c",
    "dnnl_gOwI8o4i": "dnnl_aBdC8b4c",
    "dnnl_Goiw32g": "dnnl_Abcd32a",
    "dnnl_gOIw2i4o2i": "dnnl_aBCd2c4b2c",
    "dnnl_gOIw2o4i2o": "dnnl_aBCd2b4c2b",
    "dnnl_gOIw4i8o2i": "dnnl_aBCd4c8b2c",
    "dnnl_gOIw4o8i2o": "dnnl_aBCd4b8c2b",
    "dnnl_goIw4i": "dnnl_abCd4c",
    "dnnl_goIw32i": "dnnl_abCd32c",
    "dnnl_gIOhw16i16o": "dnnl_aCBde16c16b",
    "dnnl_gIOhw16o16i": "dnnl_aCBde16b16c",
    "dnnl_gOhwi16o": "dnnl_aBdec16b",
    "dnnl_gOhwI16o2i": "dnnl_aBdeC16b2c",
    "dnnl_gOhwI16o4i": "dnnl_aBdeC16b4c",
    "dnnl_gIhwo8i": "dnnl_aCdeb8c",
    "dnnl_gIhwO8i2o": "dnnl_aCdeB8c2b",
    "dnnl_gIhwO8i4o": "dnnl_aCdeB8c4b",
    "dnnl_gIhwo16i": "dnnl_aCdeb16c",
    "dnnl_gIhwO16i2o": "dnnl_aCdeB16c2b",
    "dnnl_gIhwO16i4o": "dnnl_aCdeB16c4b",
    "dnnl_gIhwo24i": "dnnl_aCdeb24c",
    "dnnl_gIhwO24i2o": "dnnl_aCdeB24c2b",
    "dnnl_gIhwO24i4o": "dnnl_aCdeB24c4b",
    "dnnl_gOhwi32o": "dnnl_aBdec32b",
    "dnnl_gOhwi24o": "dnnl_aBdec24b",
    "dnnl_gOhwI24o2i": "dnnl_aBdeC24b2c",
    "dnnl_gOhwI24o4i": "dnnl_aBdeC24b4c",
    "dnnl_gOhwi4o": "dnnl_aBdec4b",
    "dnnl_gOhwi8o": "dnnl_aBdec8b",
    "dnnl_gOhwI8o2i": "dnnl_aBdeC8b2c",
    "dnnl_gOhwI8o4i": "dnnl_aBdeC8b4c",
    "dnnl_Goihw16g": "dnnl_Abcde16a",
    "dnnl_gOIhw16i16o": "dnnl_aBCde16c16b",
    "dnnl_gOIhw16o16i": "dnnl_aBCde16b16c",
    "dnnl_gOihw16o": "dnnl_aBcde16b",
    "dnnl_gOIhw2i8o4i": "dnnl_aBCde2c8b4c",
    "dnnl_gOIhw4i16o4i": "dnnl_aBCde4c16b4c",
    "dnnl_gOIhw16i16o4i": "dnnl_aBCde16c16b4c",
    "dnnl_gOIhw16i16o2i": "dnnl_aBCde16c16b2c",
    "dnnl_gOIhw16o16i2o": "dnnl_aBCde16b16c2b",
    "dnnl_gOIhw4i4o": "dnnl_aBCde4c4b",
    "dnnl_gOIhw4o4i": "dnnl_aBCde4b4c",
    "dnnl_gOihw4o": "dnnl_aBcde4b",
    "dnnl_Goihw8g": "dnnl_Abcde8a",
    "dnnl_Goihw4g": "dnnl_Abcde4a",
    "dnnl_gOIhw8i16o2i": "dnnl_aBCde8c16b2c",
    "dnnl_gOIhw8i8o": "dnnl_aBCde8c8b",
    "dnnl_gOIhw8o16i2o": "dnnl_aBCde8b16c2b",
    "dnnl_gIOhw8o16i2o": "dnnl_aCBde8b16c2b",
    "dnnl_gOIhw8o8i": "dnnl_aBCde8b8c",
    "dnnl_gOIhw8o4i": "dnnl_aBCde8b4c",
    "dnnl_Goihw32g": "dnnl_Abcde32a",
    "dnnl_gOwhi16o": "dnnl_aBedc16b",
    "dnnl_goIhw4i": "dnnl_abCde4c",
    "dnnl_goIhw32i": "dnnl_abCde32c",
    "dnnl_OIw4o8i8o4i": "dnnl_ABc4a8b8a4b",
    "dnnl_OIhw4o8i8o4i": "dnnl_ABcd4a8b8a4b",
    "dnnl_IOw4i8o8i4o": "dnnl_BAc4b8a8b4a",
    "dnnl_IOhw4i8o8i4o": "dnnl_BAcd4b8a8b4a",
    "dnnl_IOdhw4i8o8i4o": "dnnl_BAcde4b8a8b4a",
    "dnnl_OIhw2o8i8o2i": "dnnl_ABcd2a8b8a2b",
    "dnnl_gOIw4o8i8o4i": "dnnl_aBCd4b8c8b4c",
    "dnnl_gOIhw4o8i8o4i": "dnnl_aBCde4b8c8b4c",
    "dnnl_gOIdhw4o8i8o4i": "dnnl_aBCdef4b8c8b4c",
    "dnnl_gIOw4i8o8i4o": "dnnl_aCBd4c8b8c4b",
    "dnnl_gIOhw4i8o8i4o": "dnnl_aCBde4c8b8c4b",
    "dnnl_gIOdhw4i8o8i4o": "dnnl_aCBdef4c8b8c4b",
    "dnnl_gOIhw2o8i8o2i": "dnnl_aBCde2b8c8b2c",
    "dnnl_gOIhw2i4o2i": "dnnl_aBCde2c4b2c",
    "dnnl_gOIhw2o4i2o": "dnnl_aBCde2b4c2b",
    "dnnl_gOIhw4i8o2i": "dnnl_aBCde4c8b2c",
    "dnnl_gOIhw4o8i2o": "dnnl_aBCde4b8c2b",
    "dnnl_gIOdhw16i16o": "dnnl_aCBdef16c16b",
    "dnnl_gIOdhw16o16i": "dnnl_aCBdef16b16c",
    "dnnl_gOdhwi16o": "dnnl_aBdefc16b",
    "dnnl_gOdhwI16o2i": "dnnl_aBdefC16b2c",
    "dnnl_gOdhwI16o4i": "dnnl_aBdefC16b4c",
    "dnnl_gIdhwo8i": "dnnl_aCdefb8c",
    "dnnl_gIdhwO8i2o": "dnnl_aCdefB8c2b",
    "dnnl_gIdhwO8i4o": "dnnl_aCdefB8c4b",
    "dnnl_gIdhwo16i": "dnnl_aCdefb16c",
    "dnnl_gIdhwO16i2o": "dnnl_aCdefB16c2b",
    "dnnl_gIdhwO16i4o": "dnnl_aCdefB16c4b",
    "dnnl_gIdhwo24i": "dnnl_aCdefb24c",
    "dnnl_gIdhwO24i2o": "dnnl_aCdefB24c2b",
    "dnnl_gIdhwO24i4o": "dnnl_aCdefB24c4b",
    "dnnl_gOdhwi4o": "dnnl_aBdefc4b",
    "dnnl_gOdhwi8o": "dnnl_aBdefc8b",
    "dnnl_gOdhwI8o2i": "dnnl_aBdefC8b2c",
    "dnnl_gOdhwI8o4i": "dnnl_aBdefC8b4c",
    "dnnl_gOdwhi16o": "dnnl_aBdfec16b",
    "dnnl_gOIdhw16i16o": "dnnl_aBCdef16c16b",
    "dnnl_gOIdhw4i16o4i": "dnnl_aBCdef4c16b4c",
    "dnnl_gOIdhw16i16o4i": "dnnl_aBCdef16c16b4c",
    "dnnl_gOIdhw2i8o4i": "dnnl_aBCdef2c8b4c",
    "dnnl_gOIdhw16i16o2i": "dnnl_aBCdef16c16b2c",
    "dnnl_gOIdhw16o16i": "dnnl_aBCdef16b16c",
    "dnnl_gOIdhw16o16i2o": "dnnl_aBCdef16b16c2b",
    "dnnl_gOidhw16o": "dnnl_aBcdef16b",
    "dnnl_gOIdhw4i4o": "dnnl_aBCdef4c4b",
    "dnnl_gOIdhw4o4i": "dnnl_aBCdef4b4c",
    "dnnl_gOidhw4o": "dnnl_aBcdef4b",
    "dnnl_gOIdhw8i16o2i": "dnnl_aBCdef8c16b2c",
    "dnnl_gOIdhw8i8o": "dnnl_aBCdef8c8b",
    "dnnl_gOIdhw8o16i2o": "dnnl_aBCdef8b16c2b",
    "dnnl_gIOdhw8o16i2o": "dnnl_aCBdef8b16c2b",
    "dnnl_gOIdhw8o8i": "dnnl_aBCdef8b8c",
    "dnnl_gOIdhw8o4i": "dnnl_aBCdef8b4c",
    "dnnl_Goidhw16g": "dnnl_Abcdef16a",
    "dnnl_Goidhw32g": "dnnl_Abcdef32a",
    "dnnl_gOIdhw2i4o2i": "dnnl_aBCdef2c4b2c",
    "dnnl_gOIdhw4i8o2i": "dnnl_aBCdef4c8b2c",
    "dnnl_gOIdhw2o4i2o": "dnnl_aBCdef2b4c2b",
    "dnnl_gOIdhw4o8i2o": "dnnl_aBCdef4b8c2b",
    "dnnl_goIdhw4i": "dnnl_abCdef4c",
    "dnnl_goIdhw32i": "dnnl_abCdef32c",
    "dnnl_Owi24o": "dnnl_Acb24a",
    "dnnl_OwI24o2i": "dnnl_AcB24a2b",
    "dnnl_OwI24o4i": "dnnl_AcB24a4b",
    "dnnl_Owi32o": "dnnl_Acb32a",
    "dnnl_OwI32o2i": "dnnl_AcB32a2b",
    "dnnl_OwI32o4i": "dnnl_AcB32a4b",
    "dnnl_Owi48o": "dnnl_Acb48a",
    "dnnl_OwI48o2i": "dnnl_AcB48a2b",
    "dnnl_OwI48o4i": "dnnl_AcB48a4b",
    "dnnl_Owi64o": "dnnl_Acb64a",
    "dnnl_OwI64o2i": "dnnl_AcB64a2b",
    "dnnl_OwI64o4i": "dnnl_AcB64a4b",
    "dnnl_Iwo32i": "dnnl_Bca32b",
    "dnnl_IwO32i2o": "dnnl_BcA32b2a",
    "dnnl_IwO32i4o": "dnnl_BcA32b4a",
    "dnnl_Iwo48i": "dnnl_Bca48b",
    "dnnl_IwO48i2o": "dnnl_BcA48b2a",
    "dnnl_IwO48i4o": "dnnl_BcA48b4a",
    "dnnl_Iwo64i": "dnnl_Bca64b",
    "dnnl_IwO64i2o": "dnnl_BcA64b2a",
    "dnnl_IwO64i4o": "dnnl_BcA64b4a",
    "dnnl_wIo2i": "dnnl_cBa2b",
    "dnnl_wIo4i": "dnnl_cBa4b",
    "dnnl_gOwi24o": "dnnl_aBdc24b",
    "dnnl_gOwI24o2i": "dnnl_aBdC24b2c",
    "dnnl_gOwI24o4i": "dnnl_aBdC24b4c",
    "dnnl_gOwi32o": "dnnl_aBdc32b",
    "dnnl_gOwI32o2i": "dnnl_aBdC32b2c",
    "dnnl_gOwI32o4i": "dnnl_aBdC32b4c",
    "dnnl_gOwi48o": "dnnl_aBdc48b",
    "dnnl_gOwI48o2i": "dnnl_aBdC48b2c",
    "dnnl_gOwI48o4i": "dnnl_aBdC48b4c",
    "dnnl_gOwi64o": "dnnl_aBdc64b",
    "dnnl_gOwI64o2i": "dnnl_aBdC64b2c",
    "dnnl_gOwI64o4i": "dnnl_aBdC64b4c",
    "dnnl_gIwo32i": "dnnl_aCdb32c",
    "dnnl_gIwO32i2o": "dnnl_aCdB32c2b",
    "dnnl_gIwO32i4o": "dnnl_aCdB32c4b",
    "dnnl_gIwo48i": "dnnl_aCdb48c",
    "dnnl_gIwO48i2o": "dnnl_aCdB48c2b",
    "dnnl_gIwO48i4o": "dnnl_aCdB48c4b",
    "dnnl_gIwo64i": "dnnl_aCdb64c",
    "dnnl_gIwO64i2o": "dnnl_aCdB64c2b",
    "dnnl_gIwO64i4o": "dnnl_aCdB64c4b",
    "dnnl_gwio": "dnnl_adcb",
    "dnnl_gwIo2i": "dnnl_adCb2c",
    "dnnl_gwIo4i": "dnnl_adCb4c",
    "dnnl_OhwI24o": "dnnl_Acdb24a",
    "dnnl_OhwI24o2i": "dnnl_AcdB24a2b",
    "dnnl_OhwI24o4i": "dnnl_AcdB24a4b",
    "dnnl_OhwI32o": "dnnl_Acdb32a",
    "dnnl_OhwI32o2i": "dnnl_AcdB32a2b",
    "dnnl_OhwI32o4i": "dnnl_AcdB32a4b",
    "dnnl_Ohwi48o": "dnnl_Acdb48a",
    "dnnl_OhwI48o2i": "dnnl_AcdB48a2b",
    "dnnl_OhwI48o4i": "dnnl_AcdB48a4b",
    "dnnl_Ohwi64o": "dnnl_Acdb64a",
    "dnnl_OhwI64o2i": "dnnl_AcdB64a2b",
    "dnnl_OhwI64o4i": "dnnl_AcdB64a4b",
    "dnnl_Ihwo32i": "dnnl_Bcda32b",
    "dnnl_IhwO32i2o": "dnnl_BcdA32b2a",
    "dnnl_IhwO32i4o": "dnnl_BcdA32b4a",
    "dnnl_Ihwo48i": "dnnl_Bcda48b",
    "dnnl_IhwO48i2o": "dnnl_BcdA48b2a",
    "dnnl_IhwO48i4o": "dnnl_BcdA48b4a",
    "dnnl_Ihwo64i": "dnnl_Bcda64b",
    "dnnl_IhwO64i2o": "dnnl_BcdA64b2a",
    "dnnl_IhwO64i4o": "dnnl_BcdA64b4a",
    "dnnl_hwIo2i": "dnnl_cdBa2b",
    "dnnl_hwIo4i": "dnnl_cdBa4b",
    "dnnl_gOhwI24o": "dnnl_aBdec24b",
    "dnnl_gOhwI32o": "dnnl_aBdec32b",
    "dnnl_gOhwI32o2i": "dnnl_aBdeC32b2c",
    "dnnl_gOhwI32o4i": "dnnl_aBdeC32b4c",
    "dnnl_gOhwi48o": "dnnl_aBdec48b",
    "dnnl_gOhwI48o2i": "dnnl_aBdeC48b2c",
    "dnnl_gOhwI48o4i": "dnnl_aBdeC48b4c",
    "dnnl_gOhwi64o": "dnnl_aBdec64b",
    "dnnl_gOhwI64o2i": "dnnl_aBdeC64b2c",
    "dnnl_gOhwI64o4i": "dnnl_aBdeC64b4c",
    "dnnl_gIhwo32i": "dnnl_aCdeb32c",
    "dnnl_gIhwO32i2o": "dnnl_aCdeB32c2b",
    "dnnl_gIhwO32i4o": "dnnl_aCdeB32c4b",
    "dnnl_gIhwo48i": "dnnl_aCdeb48c",
    "dnnl_gIhwO48i2o": "dnnl_aCdeB48c2b",
    "dnnl_gIhwO48i4o": "dnnl_aCdeB48c4b",
    "dnnl_gIhwo64i": "dnnl_aCdeb64c",
    "dnnl_gIhwO64i2o": "dnnl_aCdeB64c2b",
    "dnnl_gIhwO64i4o": "dnnl_aCdeB64c4b",
    "dnnl_ghwio": "dnnl_adecb",
    "dnnl_ghwIo2i": "dnnl_adeCb2c",
    "dnnl_ghwIo4i": "dnnl_adeCb4c",
    "dnnl_Odhwi24o": "dnnl_Acdeb24a",
    "dnnl_OdhwI24o2i": "dnnl_AcdeB24a2b",
    "dnnl_OdhwI24o4i": "dnnl_AcdeB24a4b",
    "dnnl_Odhwi32o": "dnnl_Acdeb32a",
    "dnnl_OdhwI32o2i": "dnnl_AcdeB32a2b",
    "dnnl_OdhwI32o4i": "dnnl_AcdeB32a4b",
    "dnnl_Odhwi48o": "dnnl_Acdeb48a",
    "dnnl_OdhwI48o2i": "dnnl_AcdeB48a2b",
    "dnnl_OdhwI48o4i": "dnnl_AcdeB48a4b",
    "dnnl_Odhwi64o": "dnnl_Acdeb64a",
    "dnnl_OdhwI64o2i": "dnnl_AcdeB64a2b",
    "dnnl_OdhwI64o4i": "dnnl_AcdeB64a4b",
    "dnnl_Idhwo32i": "dnnl_Bcdea32b",
    "dnnl_IdhwO32i2o": "dnnl_BcdeA32b2a",
    "dnnl_IdhwO32i4o": "dnnl_BcdeA32b4a",
    "dnnl_Idhwo48i": "dnnl_Bcdea48b",
    "dnnl_IdhwO48i2o": "dnnl_BcdeA48b2a",
    "dnnl_IdhwO48i4o": "dnnl_BcdeA48b4a",
    "dnnl_Idhwo64i": "dnnl_Bcdea64b",
    "dnnl_IdhwO64i2o": "dnnl_BcdeA64b2a",
    "dnnl_IdhwO64i4o": "dnnl_BcdeA64b4a",
    "dnnl_dhwIo2i": "dnnl_cdeBa2b",
    "dnnl_dhwIo4i": "dnnl_cdeBa4b",
    "dnnl_gOdhwi24o": "dnnl_aBdefc24b",
    "dnnl_gOdhwI24o2i": "dnnl_aBdefC24b2c",
    "dnnl_gOdhwI24o4i": "dnnl_aBdefC24b4c",
    "dnnl_gOdhwi32o": "dnnl_aBdefc32b",
    "dnnl_gOdhwI32o2i": "dnnl_aBdefC32b2c",
    "dnnl_gOdhwI32o4i": "dnnl_aBdefC32b4c",
    "dnnl_gOdhwi48o": "dnnl_aBdefc48b",
    "dnnl_gOdhwI48o2i": "dnnl_aBdefC48b2c",
    "dnnl_gOdhwI48o4i": "dnnl_aBdefC48b4c",
    "dnnl_gOdhwi64o": "dnnl_aBdefc64b",
    "dnnl_gOdhwI64o2i": "dnnl_aBdefC64b2c",
    "dnnl_gOdhwI64o4i": "dnnl_aBdefC64b4c",
    "dnnl_gIdhwo32i": "dnnl_aCdefb32c",
    "dnnl_gIdhwO32i2o": "dnnl_aCdefB32c2b",
    "dnnl_gIdhwO32i4o": "dnnl_aCdefB32c4b",
    "dnnl_gIdhwo48i": "dnnl_aCdefb48c",
    "dnnl_gIdhwO48i2o": "dnnl_aCdefB48c2b",
    "dnnl_gIdhwO48i4o": "dnnl_aCdefB48c4b",
    "dnnl_gIdhwo64i": "dnnl_aCdefb64c",
    "dnnl_gIdhwO64i2o": "dnnl_aCdefB64c2b",
    "dnnl_gIdhwO64i4o": "dnnl_aCdefB64c4b",
    "dnnl_gdhwio": "dnnl_adefcb",
    "dnnl_gdhwIo2i": "dnnl_adefCb2c",
    "dnnl_gdhwIo4i": "dnnl_adefCb4c",
    "dnnl_OI16i32o4i": "dnnl_AB16b32a4b",
    "dnnl_OI16i48o4i": "dnnl_AB16b48a4b",
    "dnnl_OI16i64o4i": "dnnl_AB16b64a4b",
    "dnnl_OI16i16o2i": "dnnl_AB16b16a2b",
    "dnnl_OI16i32o2i": "dnnl_AB16b32a2b",
    "dnnl_OI16i48o2i": "dnnl_AB16b48a2b",
    "dnnl_OI16i64o2i": "dnnl_AB16b64a2b",
    "dnnl_OIw16i32o4i": "dnnl_ABc16b32a4b",
    "dnnl_OIw16i48o4i": "dnnl_ABc16b48a4b",
    "dnnl_OIw16i64o4i": "dnnl_ABc16b64a4b",
    "dnnl_OIw16i32o2i": "dnnl_ABc16b32a2b",
    "dnnl_OIw16i48o2i": "dnnl_ABc16b48a2b",
    "dnnl_OIw16i64o2i": "dnnl_ABc16b64a2b",
    "dnnl_OIhw16i32o4i": "dnnl_ABcd16b32a4b",
    "dnnl_OIhw16i48o4i": "dnnl_ABcd16b48a4b",
    "dnnl_OIhw16i64o4i": "dnnl_ABcd16b64a4b",
    "dnnl_OIhw16i32o2i": "dnnl_ABcd16b32a2b",
    "dnnl_OIhw16i48o2i": "dnnl_ABcd16b48a2b",
    "dnnl_OIhw16i64o2i": "dnnl_ABcd16b64a2b",
    "dnnl_OIdhw16i32o4i": "dnnl_ABcde16b32a4b",
    "dnnl_OIdhw16i48o4i": "dnnl_ABcde16b48a4b",
    "dnnl_OIdhw16i64o4i": "dnnl_ABcde16b64a4b",
    "dnnl_OIdhw16i32o2i": "dnnl_ABcde16b32a2b",
    "dnnl_OIdhw16i48o2i": "dnnl_ABcde16b48a2b",
    "dnnl_OIdhw16i64o2i": "dnnl_ABcde16b64a2b",
    "dnnl_OwI16i16o2i": "dnnl_AcB16b16a2b",
    "dnnl_OwI16i16o4i": "dnnl_AcB16b16a4b",
    "dnnl_OhwI16i16o2i": "dnnl_AcdB16b16a2b",
    "dnnl_OhwI16i16o4i": "dnnl_AcdB16b16a4b",
    "dnnl_OdhwI16i16o2i": "dnnl_AcdeB16b16a2b",
    "dnnl_OdhwI16i16o4i": "dnnl_AcdeB16b16a4b",
    "dnnl_IwO16o16i2o": "dnnl_BcA16a16b2a",
    "dnnl_IwO16o16i4o": "dnnl_BcA16a16b4a",
    "dnnl_IhwO16o16i2o": "dnnl_BcdA16a16b2a",
    "dnnl_IhwO16o16i4o": "dnnl_BcdA16a16b4a",
    "dnnl_IdhwO16o16i2o": "dnnl_BcdeA16a16b2a",
    "dnnl_IdhwO16o16i4o": "dnnl_BcdeA16a16b4a",
    "dnnl_gOwI16i16o2i": "dnnl_aBdC16c16b2c",
    "dnnl_gOwI16i16o4i": "dnnl_aBdC16c16b4c",
    "dnnl_gOhwI16i16o2i": "dnnl_aBdeC16c16b2c",
    "dnnl_gOhwI16i16o4i": "dnnl_aBdeC16c16b4c",
    "dnnl_gOdhwI16i16o2i": "dnnl_aBdefC16c16b2c",
    "dnnl_gOdhwI16i16o4i": "dnnl_aBdefC16c16b4c",
    "dnnl_gIwO16o16i2o": "dnnl_aCdB16b16c2b",
    "dnnl_gIwO16o16i4o": "dnnl_aCdB16b16c4b",
    "dnnl_gIhwO16o16i2o": "dnnl_aCdeB16b16c2b",
    "dnnl_gIhwO16o16i4o": "dnnl_aCdeB16b16c4b",
    "dnnl_gIdhwO16o16i2o": "dnnl_aCdefB16b16c2b",
    "dnnl_gIdhwO16o16i4o": "dnnl_aCdefB16b16c4b",
    "dnnl_OwI16i32o2i": "dnnl_AcB16b32a2b",
    "dnnl_OwI16i32o4i": "dnnl_AcB16b32a4b",
    "dnnl_OwI16i48o2i": "dnnl_AcB16b48a2b",
    "dnnl_OwI16i48o4i": "dnnl_AcB16b48a4b",
    "dnnl_OwI16i64o2i": "dnnl_AcB16b64a2b",
    "dnnl_OwI16i64o4i": "dnnl_AcB16b64a4b",
    "dnnl_IwO16o32i2o": "dnnl_BcA16a32b2a",
    "dnnl_IwO16o32i4o": "dnnl_BcA16a32b4a",
    "dnnl_IwO16o48i2o": "dnnl_BcA16a48b2a",
    "dnnl_IwO16o48i4o": "dnnl_BcA16a48b4a",
    "dnnl_IwO16o64i2o": "dnnl_BcA16a64b2a",
    "dnnl_IwO16o64i4o": "dnnl_BcA16a64b4a",
    "dnnl_gOwI16i32o2i": "dnnl_aBdC16c32b2c",
    "dnnl_gOwI16i32o4i": "dnnl_aBdC16c32b4c",
    "dnnl_gOwI16i48o2i": "dnnl_aBdC16c48b2c",
    "dnnl_gOwI16i48o4i": "dnnl_aBdC16c48b4c",
    "dnnl_gOwI16i64o2i": "dnnl_aBdC16c64b2c",
    "dnnl_gOwI16i64o4i": "dnnl_aBdC16c64b4c",
    "dnnl_gIwO16o32i2o": "dnnl_aCdB16b32c2b",
    "dnnl_gIwO16o32i4o": "dnnl_aCdB16b32c4b",
    "dnnl_gIwO16o48i2o": "dnnl_aCdB16b48c2b",
    "dnnl_gIwO16o48i4o": "dnnl_aCdB16b48c4b",
    "dnnl_gIwO16o64i2o": "dnnl_aCdB16b64c2b",
    "dnnl_gIwO16o64i4o": "dnnl_aCdB16b64c4b",
    "dnnl_OhwI16i32o2i": "dnnl_AcdB16b32a2b",
    "dnnl_OhwI16i32o4i": "dnnl_AcdB16b32a4b",
    "dnnl_OhwI16i48o2i": "dnnl_AcdB16b48a2b",
    "dnnl_OhwI16i48o4i": "dnnl_AcdB16b48a4b",
    "dnnl_OhwI16i64o2i": "dnnl_AcdB16b64a2b",
    "dnnl_OhwI16i64o4i": "dnnl_AcdB16b64a4b",
    "dnnl_IhwO16o32i2o": "dnnl_BcdA16a32b2a",
    "dnnl_IhwO16o32i4o": "dnnl_BcdA16a32b4a",
    "dnnl_IhwO16o48i2o": "dnnl_BcdA16a48b2a",
    "dnnl_IhwO16o48i4o": "dnnl_BcdA16a48b4a",
    "dnnl_IhwO16o64i2o": "dnnl_BcdA16a64b2a",
    "dnnl_IhwO16o64i4o": "dnnl_BcdA16a64b4a",
    "dnnl_gOhwI16i32o2i": "dnnl_aBdeC16c32b2c",
    "dnnl_gOhwI16i32o4i": "dnnl_aBdeC16c32b4c",
    "dnnl_gOhwI16i48o2i": "dnnl_aBdeC16c48b2c",
    "dnnl_gOhwI16i48o4i": "dnnl_aBdeC16c48b4c",
    "dnnl_gOhwI16i64o2i": "dnnl_aBdeC16c64b2c",
    "dnnl_gOhwI16i64o4i": "dnnl_aBdeC16c64b4c",
    "dnnl_gIhwO16o32i2o": "dnnl_aCdeB16b32c2b",
    "dnnl_gIhwO16o32i4o": "dnnl_aCdeB16b32c4b",
    "dnnl_gIhwO16o48i2o": "dnnl_aCdeB16b48c2b",
    "dnnl_gIhwO16o48i4o": "dnnl_aCdeB16b48c4b",
    "dnnl_gIhwO16o64i2o": "dnnl_aCdeB16b64c2b",
    "dnnl_gIhwO16o64i4o": "dnnl_aCdeB16b64c4b",
    "dnnl_OdhwI16i32o2i": "dnnl_AcdeB16b32a2b",
    "dnnl_OdhwI16i32o4i": "dnnl_AcdeB16b32a4b",
    "dnnl_OdhwI16i48o2i": "dnnl_AcdeB16b48a2b",
    "dnnl_OdhwI16i48o4i": "dnnl_AcdeB16b48a4b",
    "dnnl_OdhwI16i64o2i": "dnnl_AcdeB16b64a2b",
    "dnnl_OdhwI16i64o4i": "dnnl_AcdeB16b64a4b",
    "dnnl_IdhwO16o32i2o": "dnnl_BcdeA16a32b2a",
    "dnnl_IdhwO16o32i4o": "dnnl_BcdeA16a32b4a",
    "dnnl_IdhwO16o48i2o": "dnnl_BcdeA16a48b2a",
    "dnnl_IdhwO16o48i4o": "dnnl_BcdeA16a48b4a",
    "dnnl_IdhwO16o64i2o": "dnnl_BcdeA16a64b2a",
    "dnnl_IdhwO16o64i4o": "dnnl_BcdeA16a64b4a",
    "dnnl_gOdhwI16i32o2i": "dnnl_aBdefC16c32b2c",
    "dnnl_gOdhwI16i32o4i": "dnnl_aBdefC16c32b4c",
    "dnnl_gOdhwI16i48o2i": "dnnl_aBdefC16c48b2c",
    "dnnl_gOdhwI16i48o4i": "dnnl_aBdefC16c48b4c",
    "dnnl_gOdhwI16i64o2i": "dnnl_aBdefC16c64b2c",
    "dnnl_gOdhwI16i64o4i": "dnnl_aBdefC16c64b4c",
    "dnnl_gIdhwO16o32i2o": "dnnl_aCdefB16b32c2b",
    "dnnl_gIdhwO16o32i4o": "dnnl_aCdefB16b32c4b",
    "dnnl_gIdhwO16o48i2o": "dnnl_aCdefB16b48c2b",
    "dnnl_gIdhwO16o48i4o": "dnnl_aCdefB16b48c4b",
    "dnnl_gIdhwO16o64i2o": "dnnl_aCdefB16b64c2b",
    "dnnl_gIdhwO16o64i4o": "dnnl_aCdefB16b64c4b",
    "dnnl_hwioG16g": "dnnl_decbA16a",
    "dnnl_hwioG8g": "dnnl_decbA8a",
    "dnnl_NCdhw40n16c": "dnnl_ABcde40a16b",
    "dnnl_NCw40n16c": "dnnl_ABc40a16b",
    "dnnl_NChw40n16c": "dnnl_ABcd40a16b",
    "dnnl_NCw40n32c": "dnnl_ABc40a32b",
    "dnnl_NChw40n32c": "dnnl_ABcd40a32b",
    "dnnl_NCdhw40n32c": "dnnl_ABcde40a32b",
    "dnnl_OIdhw4o8i8o2i": "dnnl_ABcde4a8b8a2b",
    "dnnl_OIhw4o8i8o2i": "dnnl_ABcd4a8b8a2b",
    "dnnl_OIw4o8i8o2i": "dnnl_ABc4a8b8a2b",
    "dnnl_gOIdhw4o8i8o2i": "dnnl_aBCdef4b8c8b2c",
    "dnnl_gOIhw4o8i8o2i": "dnnl_aBCde4b8c8b2c",
    "dnnl_gOIw4o8i8o2i": "dnnl_aBCd4b8c8b2c",
    "dnnl_IOdhw4i8o8i2o": "dnnl_BAcde4b8a8b2a",
    "dnnl_IOhw4i8o8i2o": "dnnl_BAcd4b8a8b2a",
    "dnnl_IOw4i8o8i2o": "dnnl_BAc4b8a8b2a",
    "dnnl_gIOdhw4i8o8i2o": "dnnl_aCBdef4c8b8c2b",
    "dnnl_gIOhw4i8o8i2o": "dnnl_aCBde4c8b8c2b",
    "dnnl_gIOw4i8o8i2o": "dnnl_aCBd4c8b8c2b",
    "dnnl_NCw2c32n8c": "dnnl_ABc2b32a8b",
    "dnnl_NChw2c32n8c": "dnnl_ABcd2b32a8b",
    "dnnl_NCdhw2c32n8c": "dnnl_ABcde2b32a8b",
    "dnnl_OIw2i8o16i4o": "dnnl_ABc2b8a16b4a",
    "dnnl_OIhw2i8o16i4o": "dnnl_ABcd2b8a16b4a",
    "dnnl_OIdhw2i8o16i4o": "dnnl_ABcde2b8a16b4a",
    "dnnl_OIw2o8i16o4i": "dnnl_ABc2a8b16a4b",
    "dnnl_OIw2o8i16o2i": "dnnl_ABc2a8b16a2b",
    "dnnl_IOw2i8o16i4o": "dnnl_BAc2b8a16b4a",
    "dnnl_IOw2i8o16i2o": "dnnl_BAc2b8a16b2a",
    "dnnl_OIhw2o8i16o4i": "dnnl_ABcd2a8b16a4b",
    "dnnl_OIhw2o8i16o2i": "dnnl_ABcd2a8b16a2b",
    "dnnl_IOhw2i8o16i4o": "dnnl_BAcd2b8a16b4a",
    "dnnl_IOhw2i8o16i2o": "dnnl_BAcd2b8a16b2a",
    "dnnl_OIdhw2o8i16o4i": "dnnl_ABcde2a8b16a4b",
    "dnnl_OIdhw2o8i16o2i": "dnnl_ABcde2a8b16a2b",
    "dnnl_IOdhw2i8o16i4o": "dnnl_BAcde2b8a16b4a",
    "dnnl_IOdhw2i8o16i2o": "dnnl_BAcde2b8a16b2a",
    "dnnl_gOIw2o8i16o2i": "dnnl_aBCd2b8c16b2c",
    "dnnl_gIOw2i8o16i2o": "dnnl_aCBd2c8b16c2b",
    "dnnl_gIOhw2i8o16i2o": "dnnl_aBCde2c8b16c2b",
    "dnnl_gIOdhw2i8o16i2o": "dnnl_aBCdef2c8b16c2b",
    "dnnl_gOIhw2o8i16o2i": "dnnl_aBCde2b8c16b2c",
    "dnnl_gOIdhw2o8i16o2i": "dnnl_aBCdef2b8c16b2c",
    "dnnl_gOIw2o8i16o4i": "dnnl_aBCd2b8c16b4c",
    "dnnl_gOIhw2o8i16o4i": "dnnl_aBCde2b8c16b4c",
    "dnnl_forward": "dnnl_forward_training",
}

EXPERIMENTAL = {
    "dnnl_format_kind_sparse": "DNNL_EXPERIMENTAL_SPARSE",
    "dnnl_sparse_encoding_undef": "DNNL_EXPERIMENTAL_SPARSE",
    "dnnl_csr": "DNNL_EXPERIMENTAL_SPARSE",
    "dnnl_query_sparse_encoding": "DNNL_EXPERIMENTAL_SPARSE",
    "dnnl_query_nnz_s64": "DNNL_EXPERIMENTAL_SPARSE",
    "dnnl_query_num_handles_s32": "DNNL_EXPERIMENTAL_SPARSE",
    "dnnl_stream_profiling": "DNNL_EXPERIMENTAL_PROFILING",
    "dnnl_profiling_data_kind_undef": "DNNL_EXPERIMENTAL_PROFILING",
    "dnnl_profiling_data_kind_time": "DNNL_EXPERIMENTAL_PROFILING",
}

# sizeof and (C type, offset) of each field, in declaration order
STRUCTS = {
    "dnnl_version_t": {
        "sizeof": 32,
        "fields": {
            "major": ("int", 0),
            "minor": ("int", 4),
            "patch": ("int", 8),
            "hash": ("const char *", 16),
            "cpu_runtime": ("unsigned", 24),
            "gpu_runtime": ("unsigned", 28),
        },
    },
    "dnnl_exec_arg_t": {
        "sizeof": 16,
        "fields": {
            "arg": ("int", 0),
            "memory": ("dnnl_memory_t", 8),
        },
    },
}
