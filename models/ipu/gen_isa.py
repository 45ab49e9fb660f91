#!/usr/bin/env python3
"""Generate the IPU tile's instruction table from models/ipu/data/instructions.tsv.

    python3 models/ipu/gen_isa.py              (rewrites models/ipu/isa_instructions.inc)
    python3 models/ipu/gen_isa.py --out DIR    (tests/ipu/tests.cmake: regenerate and compare)

Input: one row per instruction class (the IPU reference pack's table, copied unchanged):
mnemonic, variant, syntax, context (worker/supervisor/both), pipe, archs, mask/match (bit 31,
the co-issue bit, excluded), fields (Name=hi:lo(kind), split fields Name=hi:lo=v[a:b]+...),
attrs, kind. And data/behaviours.tsv: the classes that have a behaviour in insns.h; and
data/unmodelled.tsv: for each mnemonic without one, why (the facts it needs are not public).

Output: one line per instruction of ipu.c's table:

    IPU_ISA(variant, "mnemonic", sets, "format", "syntax", "fields", flags, modelled, "why", operands...)
    IPU_ALIAS(variant, base, sets, "format", "syntax", "fields")              sugar of `base`

sets: 1 = worker set, 2 = supervisor set, 3 = both. flags: IPU_SOLO, IPU_AUX, IPU_CONTROL,
IPU_SYSTEM; modelled 1 if insns.h defines its behaviour, else why is the reason its exception gives. The format marks bit 31 '*' (the group bit belongs to no format),
the mask bits with their match values and every operand bit 'f'; the fields string maps each
operand, in the order the syntax writes them, onto its word bits. Nothing about what an
instruction does lives here.
"""
import argparse
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')

ARGS = argparse.ArgumentParser(description='Generate models/ipu/isa_instructions.inc from the TSV table.')
ARGS.add_argument('--tsv', default=os.path.join(DATA, 'instructions.tsv'))
ARGS.add_argument('--behaviours', default=os.path.join(DATA, 'behaviours.tsv'))
ARGS.add_argument('--unmodelled', default=os.path.join(DATA, 'unmodelled.tsv'))
ARGS.add_argument('--out', default=HERE)
OPTS = ARGS.parse_args()


def read_tsv(path):
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE))
    for i, r in enumerate(rows):
        r['_at'] = '%s:%d' % (os.path.basename(path), i + 2)
    return rows


def fail(row, message):
    sys.exit('%s: %s (%s): %s' % (row['_at'], row['mnemonic'], row['variant'], message))


ROWS = read_tsv(OPTS.tsv)
MODELLED = {r['variant'] for r in read_tsv(OPTS.behaviours)} if os.path.exists(OPTS.behaviours) else set()
WHY = {r['mnemonic']: r['why'] for r in read_tsv(OPTS.unmodelled)}
SETS = {'worker': 1, 'supervisor': 2, 'both': 3}


def modelled_and_why(row, variant):
    """'1, ""' for a class with a behaviour, '0, "reason"' for one without: every class has
    exactly one of the two."""
    if variant in MODELLED:
        if row['mnemonic'] in WHY:
            fail(row, 'has a behaviour and a reason in unmodelled.tsv')
        return '1, ""'
    if row['mnemonic'] not in WHY:
        fail(row, 'has neither a behaviour (behaviours.tsv) nor a reason (unmodelled.tsv)')
    return '0, %s' % c_str(WHY[row['mnemonic']])

# ---- fields -------------------------------------------------------------------------------------

FIELD = re.compile(r'^\s*([A-Za-z][A-Za-z0-9]*)(?:-1)?=(.*?)\s*(?:\((.*)\))?\s*$')


def parse_fields(row):
    """{name: (segments [(vhi, vlo, whi, wlo)], kind text)} in the column's order."""
    out = {}
    text = row['fields']
    if text in ('-', ''):
        return out
    for item in text.split(';'):
        m = FIELD.match(item)
        if not m:
            fail(row, 'cannot read field %r' % item)
        name, bits, kind = m.group(1), m.group(2), m.group(3) or ''
        segs = []
        if '=v[' in bits:
            for part in bits.split('+'):
                pm = re.match(r'^(\d+):(\d+)=v\[(\d+):(\d+)\]$', part)
                if not pm:
                    fail(row, 'cannot read split field %r' % part)
                whi, wlo, vhi, vlo = map(int, pm.groups())
                segs.append((vhi, vlo, whi, wlo))
        else:
            bm = re.match(r'^(\d+)(?::(\d+))?$', bits)
            if not bm:
                fail(row, 'cannot read bits %r' % bits)
            whi = int(bm.group(1))
            wlo = int(bm.group(2)) if bm.group(2) else whi
            segs.append((whi - wlo, 0, whi, wlo))
        if kind.startswith('quad: (first reg#)>>1'):
            # three bits hold the first register >> 1: value bits 3:1 (the quad's register number)
            (vhi, vlo, whi, wlo), = segs
            segs = [(3, 1, whi, wlo)]
        out[name] = (segs, kind)
    return out

# ---- syntax ---------------------------------------------------------------------------------------

REG = re.compile(r'^\$([ma])([A-Za-z][A-Za-z0-9]*)(:[A-Za-z0-9]+\+\d|:BL|:BU|:B)?(\+\+|\+=|@|>>)?$')
IMM = re.compile(r'^(zimm\d+|simm\d+|izimm12|target19|csr8|strimm\w+|\(count-1\)|\(events-1\)|srcdelta|sctl|sel|value)'
                 r'(\(.*\))?$')


def kind_of(row, reg_file, group, fkind):
    if not group or group in (':BL', ':BU', ':B'):
        return reg_file
    size = group.split('+')[1]
    if size == '1':
        return reg_file + 'p'
    if size == '3' and reg_file == 'a':
        return 'aq'
    fail(row, 'register group %r' % group)


def imm_flags(token, fkind):
    """Field flags and kind of an immediate operand."""
    t = token.split('(')[0]
    if t.startswith('simm'):
        return ':s', ''
    if t == 'izimm12' or 'izimm12' in fkind:
        return '', 'izimm12'
    if t == 'target19' or 'byte_addr' in fkind:
        return '', 'target'
    if t == 'zimm20':
        # setzi's immediate: the one field wide enough for a tile address, so a label goes there
        return '', 'zimm20'
    return '', ''


def template(row, fields):
    """The syntax template and the fields string (operands in the order they are written)."""
    syntax = row['syntax']
    mn, _, ops = syntax.partition(' ')
    tokens = [t.strip() for t in ops.split(',')] if ops.strip() else []
    used = []
    parts = []
    spec = []
    named = {m.group(2) for m in (REG.match(t) for t in tokens) if m}
    pending = [n for n in fields if n not in named]
    for tok in tokens:
        m = REG.match(tok)
        if m:
            rf, name, group, suffix = m.groups()
            if name not in fields:
                fail(row, 'operand %s has no field' % name)
            segs, fkind = fields[name]
            kind = kind_of(row, rf, group, fkind)
            if kind == 'mp' and 'pair' not in fkind and fkind:
                fail(row, 'MRF pair %s in a field of kind %r' % (name, fkind))
            text = '{%s:%s}' % (name, kind)
            if group in (':BL', ':BU', ':B'):
                text += group
            parts.append(text + (suffix or ''))
            spec.append((name, '', segs))
            used.append(name)
            continue
        m = IMM.match(tok)
        if not m:
            fail(row, 'cannot read operand %r' % tok)
        rest = [n for n in pending if n not in used]
        if not rest:
            fail(row, 'immediate %r has no field' % tok)
        name = rest[0]
        segs, fkind = fields[name]
        flags, kind = imm_flags(tok, fkind)
        parts.append('{%s:%s}' % (name, kind) if kind else '{%s}' % name)
        spec.append((name, flags, segs))
        used.append(name)
    unused = [n for n in fields if n not in used]
    if unused:
        fail(row, 'fields %s are not in the syntax' % ', '.join(unused))
    text = mn + (' ' + ', '.join(parts) if parts else '')
    out = []
    for name, flags, segs in spec:
        for i, (vhi, vlo, whi, wlo) in enumerate(segs):
            out.append('%s%s{%d:%d}=%d:%d' % (name, flags if i == 0 else '', vhi, vlo, whi, wlo))
    return text, ' '.join(out)


def format_string(row, mask, match, fields):
    operand = 0
    for segs, _ in fields.values():
        for vhi, vlo, whi, wlo in segs:
            operand |= ((1 << (whi - wlo + 1)) - 1) << wlo
    if operand & mask:
        fail(row, 'operand bits 0x%08X overlap the mask' % (operand & mask))
    s = ''
    for b in range(31, -1, -1):
        if b == 31:
            s += '*'
        elif mask >> b & 1:
            s += str(match >> b & 1)
        elif operand >> b & 1:
            s += 'f'
        else:
            s += '*'
        if b in (31, 24, 16, 8) and b:
            s += '-'
    return s


def hexval(row, col):
    try:
        return int(row[col], 16)
    except ValueError:
        fail(row, '%s %r is not hexadecimal' % (col, row[col]))


def operand_list(syn):
    """', A, B': the operands in the order the syntax writes them (the behaviour's parameters)."""
    return ''.join(', ' + n for n in re.findall(r'\{(\w+)', syn))


def c_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def ident(s):
    return re.sub(r'[^A-Za-z0-9_]', '_', s)

# ---- the table ------------------------------------------------------------------------------------

lines = []
isa = {}
# The assembler takes the first class whose operands fit: a zero-tailed (izimm12) form after
# the plain one, so that `or $m7, $m0, 0` is the zimm12 form, as Graphcore's assembler chooses.
for row in sorted(ROWS, key=lambda r: 'izimm12' in r['syntax']):
    if row['kind'] != 'isa':
        continue
    mask, match = hexval(row, 'mask') & 0x7FFFFFFF, hexval(row, 'match')
    fields = parse_fields(row)
    syn, spec = template(row, fields)
    attrs = row['attrs']
    flags = []
    if 'solo' in attrs:
        flags.append('IPU_SOLO')
    if row['pipe'] == 'aux':
        flags.append('IPU_AUX')
    if 'control' in attrs:
        flags.append('IPU_CONTROL')
    if 'system' in attrs:
        flags.append('IPU_SYSTEM')
    if 'load' in attrs:
        flags.append('IPU_LOAD')
    if 'store' in attrs:
        flags.append('IPU_STORE')
    # call links and jumps; `br $lr` returns, and br also serves computed jumps, which the
    # debugger's call stack tells apart by the return addresses it holds (INSTRUCTION .flow)
    if re.search(r'\bcall\b', attrs):
        flags.append('IPU_CALL')
    if re.search(r'\breturn\b', attrs):
        flags.append('IPU_RETURN')
    isa[row['variant']] = (row, mask, match, fields, syn, spec)
    lines.append('IPU_ISA(%s, %s, %d, %s, %s, %s, %s, %s%s)' % (
        ident(row['variant']), c_str(row['mnemonic']), SETS[row['context']],
        c_str(format_string(row, mask, match, fields)), c_str(syn), c_str(spec), ' | '.join(flags) or '0',
        modelled_and_why(row, row['variant']), operand_list(syn)))

# Exchange and sync rows (third-party formulas, supervisor) decode like ISA classes. sendpicp's
# first word has bit 31, the co-issue bit, set although it is no bundle: its format fixes the
# bit to 1 (INSTRUCTION .solo = ISK_SOLO_BIT_SET), which tells it from send/sendoff/sendpic (the
# same bits with 31 clear). Its second word (XPIC and PIC) is data that follows it, which
# Graphcore's disassembler prints as an instruction of its own.
EXCHANGE_SYNTAX = {'sendoff': 'sendoff {Count}, {SrcDelta}, {Sctl}', 'sendpic': 'sendpic {Count}, {Sel}, {Value}',
                   'delaypic': 'delaypic {Events}, {Sel}, {Value}', 'delayxpic': 'delayxpic {Events}, {Sel}, {Value}',
                   'send': 'send {Count}, {SrcWordAddr}, {Sctl}',
                   'sendpicp': 'sendpicp {Count}, {SrcWordAddr}, {Sctl}, {PicSel}'}
for row in ROWS:
    if not row['kind'].startswith('exchange'):
        continue
    mn = row['mnemonic']
    match = hexval(row, 'match')
    bit_set = bool(match >> 31)
    if bit_set and mn != 'sendpicp':
        fail(row, 'sets bit 31, the co-issue bit: only sendpicp is known to')
    match &= 0x7FFFFFFF
    mask = int(row['mask'].split()[0], 16) & 0x7FFFFFFF
    text = row['fields']
    if mn == 'sendpicp':
        fields = {'Count': ([(5, 0, 26, 21)], ''), 'SrcWordAddr': ([(17, 0, 20, 3)], ''),
                  'Sctl': ([(2, 0, 2, 0)], ''), 'PicSel': ([(0, 0, 27, 27)], '')}
    elif mn == 'sendoff':
        fields = {'Count': ([(5, 0, 26, 21), (11, 6, 19, 14)], ''), 'SrcDelta': ([(10, 0, 13, 3)], ''),
                  'Sctl': ([(2, 0, 2, 0)], '')}
    else:
        fields = parse_fields(dict(row, fields=re.sub(r'\s*\(events-1\)', '', text)))
    if mn in EXCHANGE_SYNTAX:
        syn = EXCHANGE_SYNTAX[mn]
        spec = ' '.join('%s{%d:%d}=%d:%d' % (n, *seg) for n in re.findall(r'\{(\w+)\}', syn) for seg in fields[n][0])
    else:
        syn, spec = template(row, fields)
    lines.append('IPU_ISA(%s, %s, %d, %s, %s, %s, %s, %s%s)' % (
        ident(mn + '_x'), c_str(mn), SETS[row['context']], c_str(format_string(row, mask, match, fields)),
        c_str(syn), c_str(spec),
        'IPU_SOLO_BIT_SET | IPU_SYSTEM' if bit_set else 'IPU_SOLO | IPU_SYSTEM' if 'solo' in row['attrs'] else 'IPU_SYSTEM',
        modelled_and_why(row, mn + '_x'), operand_list(syn)))


def base_of(row, mask, match, context):
    """The ISA class an alias pins operand bits of."""
    for v, (r, m2, x2, _f, _s, _sp) in isa.items():
        if m2 & ~mask == 0 and match & m2 == x2 and SETS[r['context']] & SETS[context]:
            return v
    fail(row, 'no ISA class under mask 0x%08X match 0x%08X' % (mask, match))


# Sugar (alias rows): fixed encodings (nop, zero, mov, ...), other spellings of a class
# ("see X"), swap16 (Src in both source fields), and the memory shorthand (Delta = $m15).
for row in ROWS:
    if row['kind'] != 'alias/pseudo' or row['context'] not in SETS:
        continue
    if row['mask'].startswith('0x'):
        mask, match = hexval(row, 'mask') & 0x7FFFFFFF, hexval(row, 'match')
        base = base_of(row, mask, match, row['context'])
        fields = parse_fields(dict(row, fields=re.sub(r'\((pair)\)', '(pair: even reg#)', row['fields'])))
        syn, spec = template(row, fields)
        lines.append('IPU_ALIAS(%s, %s, %d, %s, %s, %s)' % (
            ident(row['mnemonic'] + '_' + str(len(lines))), ident(base), SETS[row['context']],
            c_str(format_string(row, mask, match, fields)), c_str(syn), c_str(spec)))
    elif row['mask'].startswith('see '):
        ref = row['mask'][4:]
        cands = [v for v in isa if v == ref] or \
                [v for v, t in isa.items() if t[0]['mnemonic'] == ref and
                 t[4].count(',') == row['syntax'].count(',')]
        if row['mnemonic'] in ('get', 'put'):
            cands = [v for v, t in isa.items() if t[0]['mnemonic'] == ref]
        if row['mnemonic'] == 'swap16':
            reg = row['syntax'].split()[1][1]
            cands = [v for v, t in isa.items() if t[0]['mnemonic'] == 'roll16' and t[4].count(':%s}' % reg) == 3]
        if len(cands) != 1:
            fail(row, 'cannot find the class %r it spells (%s)' % (ref, ', '.join(cands) or 'none'))
        base = cands[0]
        brow, mask, match, bfields, bsyn, bspec = isa[base]
        if row['mnemonic'] == 'swap16':
            # roll16 $d, $s, $s: one operand written to both source fields
            rf = bsyn.split('{Src0:')[1][0]
            syn = 'swap16 {Dst:%s}, {Src:%s}' % (rf, rf)
            segs = dict((n, s) for n, (s, _k) in bfields.items())
            spec = ' '.join(['Dst{%d:%d}=%d:%d' % segs['Dst'][0], 'Src{%d:%d}=%d:%d' % segs['Src0'][0],
                             'Src{%d:%d}=%d:%d' % segs['Src1'][0]])
        else:
            syn = row['mnemonic'] + ' ' + bsyn.partition(' ')[2]
            spec = bspec
        lines.append('IPU_ALIAS(%s, %s, %d, %s, %s, %s)' % (
            ident(row['mnemonic'] + '_' + str(len(lines))), ident(base), SETS[row['context']],
            c_str(format_string(brow, mask, match, bfields)), c_str(syn), c_str(spec)))

# `sub $d, $s, imm` = `add $d, $s, -imm` (architecture.md 11.1): the simm16 form of add with the
# immediate negated (field flag n), so -imm must fit simm16. After adds in the table, so the
# disassembler keeps printing add words as Graphcore's tools do.
for row in ROWS:
    if row['kind'] != 'alias/pseudo' or row['mnemonic'] != 'sub':
        continue
    brow, mask, match, bfields, bsyn, bspec = isa['add_mmmn_si']
    lines.append('IPU_ALIAS(%s, add_mmmn_si, %d, %s, %s, %s)' % (
        ident('sub_imm_' + str(len(lines))), SETS[brow['context']], c_str(format_string(brow, mask, match, bfields)),
        c_str(bsyn.replace('add ', 'sub ', 1)), c_str(bspec.replace('Imm:s{', 'Imm:sn{'))))

# The memory shorthand: a load or store written without its delta register uses $m15.
for v, (row, mask, match, fields, syn, spec) in list(isa.items()):
    if not re.search(r'\{Base:m\}, \{Delta:m\}, ', syn):
        continue
    dseg, = fields['Delta'][0]
    _vhi, _vlo, whi, wlo = dseg
    short = syn.replace('{Base:m}, {Delta:m}, ', '{Base:m}, ')
    sspec = ' '.join(s for s in spec.split() if not s.startswith('Delta{'))
    smask, smatch = mask | (0xF << wlo), match | (0xF << wlo)
    sfields = {n: f for n, f in fields.items() if n != 'Delta'}
    lines.append('IPU_ALIAS(%s, %s, %d, %s, %s, %s)' % (
        ident(v + '_nodelta'), ident(v), SETS[row['context']], c_str(format_string(row, smask, smatch, sfields)),
        c_str(short), c_str(sspec)))

header = ('/* Generated by models/ipu/gen_isa.py from models/ipu/data/instructions.tsv: do not edit.\n'
          ' * %d ISA and exchange classes, %d aliases. */\n' %
          (sum(1 for l in lines if l.startswith('IPU_ISA')), sum(1 for l in lines if l.startswith('IPU_ALIAS'))))
with open(os.path.join(OPTS.out, 'isa_instructions.inc'), 'w') as f:
    f.write(header + '\n'.join(lines) + '\n')
