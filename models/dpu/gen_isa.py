#!/usr/bin/env python3
"""Generate the DPU instruction table of the isekit model from the reference data.

    python3 models/dpu/gen_isa.py            (run from anywhere; rewrites models/dpu/isa_*.inc)

Inputs (facts, copied from the DPU reference pack into models/dpu/data/):
  instructions.tsv  one row per signature: encoding (mask/match, field placement), syntax,
                    immediate ranges, relocations, sugar mapping
  conditions.tsv    the condition classes: code -> name (+ assembler aliases)

Outputs (committed, so that the build never runs this script):
  isa_conditions.inc   per class: code -> meaning table used by the behaviours
  isa_behaviours.inc   one BEHAVIOUR per real signature, composed from the families of insns/
  isa_instructions.inc the operand kinds and one INSTRUCTION per signature (real and sugar)

The behaviours are one-liners: each names its family operation (insns/*.h) and the generic
operand form (forms.h). Everything that is a fact about bits comes from the TSV files.
"""
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')

# ---- reading -----------------------------------------------------------------------------

def read_tsv(name):
    with open(os.path.join(DATA, name), newline='') as f:
        return list(csv.DictReader(f, delimiter='\t'))

ROWS = read_tsv('instructions.tsv')
CONDS = read_tsv('conditions.tsv')


def operands(row):
    """The syntax column as a list of (name, type) or literal tokens ('zero', 'false')."""
    s = row['syntax']
    if s == '-':
        return []
    out = []
    for tok in s.split(', '):
        if ':' in tok:
            n, t = tok.split(':')
            out.append((n, t))
        else:
            out.append((tok, None))
    return out


def ranges(row):
    r = row['imm_ranges']
    if r == '-':
        return {}
    return dict(x.split('=', 1) for x in r.split())

# ---- condition classes ----------------------------------------------------------------------

# Meaning of each condition name (the same name means the same test in every class; see
# conditions.tsv meaning_test). ltu/geu are the carry tests of subtraction (CF = no borrow).
MEANING = {
    'false': 'CC_FALSE', 'true': 'CC_TRUE', 'z': 'CC_Z', 'nz': 'CC_NZ', 'xz': 'CC_XZ', 'xnz': 'CC_XNZ',
    'pl': 'CC_PL', 'mi': 'CC_MI', 'sz': 'CC_SZ', 'snz': 'CC_SNZ', 'spl': 'CC_SPL', 'smi': 'CC_SMI',
    'ov': 'CC_OV', 'nov': 'CC_NOV', 'c': 'CC_C', 'nc': 'CC_NC', 'ltu': 'CC_NC', 'geu': 'CC_C',
    'lts': 'CC_LTS', 'ges': 'CC_GES', 'les': 'CC_LES', 'gts': 'CC_GTS', 'leu': 'CC_LEU', 'gtu': 'CC_GTU',
    'xles': 'CC_XLES', 'xgts': 'CC_XGTS', 'xleu': 'CC_XLEU', 'xgtu': 'CC_XGTU',
    'e': 'CC_E', 'o': 'CC_O', 'se': 'CC_SE', 'so': 'CC_SO', 'sh32': 'CC_SH32', 'nsh32': 'CC_NSH32',
    'max': 'CC_MAX', 'nmax': 'CC_NMAX', 'small': 'CC_SMALL', 'large': 'CC_LARGE',
}
for n in range(5, 15):
    MEANING['nc%d' % n] = 'CC_NC%d' % n

# Assembler spellings accepted for every class (README 1.5): t = true, nsz = snz.
EXTRA_ALIASES = {'true': ['t'], 'snz': ['nsz']}


def classes():
    out = {}
    for c in CONDS:
        if c['code'] == '-' or c['class'].startswith('const_cc_'):
            continue
        out.setdefault(c['class'], []).append(c)
    return out

CLASSES = classes()


def class_names(cls):
    """The NAMES table of a condition class: printed names first, then aliases, each also
    with the '?' and '!' prefixes the assembler accepts."""
    items = []
    seen = set()
    for c in CLASSES[cls]:
        code = int(c['code'])
        names = [c['name']]
        if c['asm_aliases_same_code'] != '-':
            names += c['asm_aliases_same_code'].split(',')
        names += EXTRA_ALIASES.get(c['name'], [])
        for n in names:
            if (n, code) not in seen:
                seen.add((n, code))
                items.append((n, code))
    table = ['%s=%d' % (n, v) for n, v in items]
    table += ['?%s=%d' % (n, v) for n, v in items]
    table += ['!%s=%d' % (n, v) for n, v in items]
    return ' '.join(table)

# ---- operand kinds ----------------------------------------------------------------------------

REG_KINDS = {
    'r': 'r0..r23=0',
    'rk': 'r0..r23=0 zero=24 one=25 lneg=26 mneg=27 id=28 id2=29 id4=30 id8=31',
    'rknz': 'r0..r23=0 one=25 lneg=26 mneg=27 id=28 id2=29 id4=30 id8=31',
    'k': 'zero=24 one=25 lneg=26 mneg=27 id=28 id2=29 id4=30 id8=31',
    'd': 'd0..d22/2=0',
    's': 's0..s23=0',
    'sk': 's0..s23=0 zero=24 one=25 lneg=26 mneg=27 id=28 id2=29 id4=30 id8=31',
    'e': '!little=0 !big=1',
}
REG_TYPE = {'r': 'r', 'rk': 'rk', 'rk-nozero': 'rknz', 'k': 'k', 'd': 'd', 's': 's', 'sk': 'sk', 'e': 'e'}

# Display ties between sugars of one base (README 2.3) that declaration order alone cannot
# settle, because the assembler needs register forms declared before immediate forms: the
# losing sugar's register operand leaves out `zero`, so it does not match then.
NOZERO_SUGAR = {'jump:r': 'ra', 'move.u:rrci': 'ra'}

INT_KINDS = {}   # name -> (type, lo, hi)


def int_kind(typ, rng):
    lo, hi = (int(x) for x in rng.strip('[]').split(','))
    name = typ
    if typ == 'u32' and (lo, hi) != (-2**31, 2**32 - 1):
        # move.s/move.u: the disassembler prints the value in hex as unsigned, so the assembler
        # accepts the whole SU range, as for every other u32.
        lo, hi = -2**31, 2**32 - 1
    if typ in ('s8', 's16') and hi == 2 ** (int(typ[1:])) - 1:
        name = typ + 'su'
    if name in INT_KINDS and INT_KINDS[name] != (typ, lo, hi):
        sys.exit('kind %s: two ranges %s and %s' % (name, INT_KINDS[name], (typ, lo, hi)))
    INT_KINDS[name] = (typ, lo, hi)
    return name


def is_signed(typ):
    return re.fullmatch(r's\d+', typ) is not None


def kind_of(row, name, typ):
    if typ in REG_TYPE:
        k = REG_TYPE[typ]
        if NOZERO_SUGAR.get(row['sig']) == name and k == 'rk':
            k = 'rknz'
        return k
    if typ in CLASSES or typ.endswith('_cc'):
        return typ
    rng = ranges(row).get(name)
    if rng is None:
        sys.exit('%s: no range for %s' % (row['sig'], name))
    return int_kind(typ, rng)

# ---- formats ------------------------------------------------------------------------------------

LETTER = {'rc': 'c', 'dc': 'c', 'sc': 'c', 'ra': 'a', 'sa': 'a', 'rb': 'b', 'db': 'b', 'sb': 'b',
          'imm': 'i', 'off': 'o', 'pc': 'p', 'cc': 'k', 'shift': 'h', 'endian': 'e', 'immDma': 'm'}


def parse_fields(spec):
    """[(name, [(vhi, vlo, whi, wlo)])] in the TSV's order."""
    out = []
    if spec == '-':
        return out
    for part in spec.split('; '):
        segs = []
        name = None
        for seg in part.split():
            m = re.fullmatch(r'(\w+)\{(\d+)(?::(\d+))?\}=(\d+)(?::(\d+))?', seg)
            if not m:
                sys.exit('bad segment ' + seg)
            name = m.group(1)
            vhi = int(m.group(2)); vlo = int(m.group(3) or vhi)
            whi = int(m.group(4)); wlo = int(m.group(5) or whi)
            segs.append((vhi, vlo, whi, wlo))
        out.append((name, segs))
    return out


def format_string(row):
    mask = int(row['mask'], 16)
    match = int(row['match'], 16)
    fields = parse_fields(row['fields'])
    owner = {}
    for name, segs in fields:
        for vhi, vlo, whi, wlo in segs:
            for b in range(wlo, whi + 1):
                owner[b] = name
    s = ''
    for b in range(47, -1, -1):
        if mask >> b & 1:
            s += '1' if match >> b & 1 else '0'
        elif b in owner:
            s += LETTER.get(owner[b], 'x')
        else:
            sys.exit('%s: bit %d is neither fixed nor an operand' % (row['sig'], b))
        if b and b % 4 == 0:
            s += '-'
    return s


def fields_string(row):
    types = {n: t for n, t in operands(row) if t}
    parts = []
    for name, segs in parse_fields(row['fields']):
        flag = ':s' if is_signed(types.get(name, '')) else ''
        out = []
        for i, (vhi, vlo, whi, wlo) in enumerate(segs):
            v = '%d' % vhi if vhi == vlo else '%d:%d' % (vhi, vlo)
            w = '%d' % whi if whi == wlo else '%d:%d' % (whi, wlo)
            out.append('%s%s{%s}=%s' % (name, flag if i == 0 else '', v, w))
        parts.append(' '.join(out))
    return '; '.join(parts)


def field_order(row):
    return [n for n, _ in parse_fields(row['fields'])]


def syntax_template(row):
    mn = row['mnemonic']
    ops = []
    for name, typ in operands(row):
        if typ is None:
            ops.append(name)
        else:
            ops.append('{%s:%s}' % (name, kind_of(row, name, typ)))
    return mn + (' ' + ', '.join(ops) if ops else '')


def ident(sig):
    mn, form = sig.split(':')
    s = mn.replace('.', '_')
    if form and form != '-':
        s += '_' + form
    return s

# ---- behaviours -----------------------------------------------------------------------------------

BINARY = {'add', 'addc', 'sub', 'subc', 'rsub', 'rsubc', 'and', 'or', 'xor', 'nand', 'nor', 'nxor', 'andn', 'orn',
          'lsl', 'lsr', 'asr', 'rol', 'ror', 'lsl1', 'lsr1', 'lslx', 'lsrx', 'lsl1x', 'lsr1x', 'cmpb4', 'hash'}
UNARY = {'clz', 'clo', 'cls', 'cao', 'extsb', 'extsh', 'extub', 'extuh', 'sats'}
SHIFT_ADD = {'lsl_add', 'lsl_sub', 'lsr_add', 'rol_add'}
LOADS = {'lbs': (1, 1), 'lbu': (1, 0), 'lhs': (2, 1), 'lhu': (2, 0), 'lw': (4, 0)}
STORES = {'sb': 1, 'sh': 2, 'sw': 4}


def split_mnemonic(mn):
    if mn.endswith('.s') or mn.endswith('.u'):
        return mn[:-2], mn[-1]
    return mn, ''


def val(name, typ):
    if typ in ('r', 'rk', 'rk-nozero', 'k', 's', 'sk'):
        return 'RV(%s)' % name
    if typ == 'd':
        return 'DV(%s)' % name
    return name


def put(dest, ext, value):
    """Write the 32-bit value to the destination operand (name, type) or nothing for zero."""
    name, typ = dest
    if name == 'zero':
        return ''
    if typ == 'd':
        return 'PUT_%s(%s, %s); ' % ('S' if ext == 's' else 'U', name, value)
    return 'PUT_R(%s, %s); ' % (name, value)


def alu_form(row, compute):
    """The generic operand forms (semantics.md 2): plain, set (c), branch (ci), false (f)."""
    ops = operands(row)
    base, ext = split_mnemonic(row['mnemonic'])
    dest = ops[0]
    cc = [(n, t) for n, t in ops if n == 'cc']
    has_pc = any(n == 'pc' for n, _ in ops)
    body = compute + ' '
    if not cc:
        body += put(dest, ext, 'X')
        body += 'FLAGS();'
    elif has_pc:
        body += 'TAKEN(%s, cc); ' % cc[0][1] + put(dest, ext, 'X') + 'FLAGS(); BRANCH(pc);'
    elif dest[0] == 'zero':     # a set form without destination: only the flags remain
        body += 'FLAGS(); (void)cc;'
    else:
        body += 'TAKEN(%s, cc); ' % cc[0][1] + put(dest, ext, 'taken_') + 'FLAGS();'
    return body


def behaviour(row):
    """C body of the behaviour of a real row."""
    mn = row['mnemonic']
    form = row['form']
    ops = operands(row)
    base, ext = split_mnemonic(mn)
    named = [(n, t) for n, t in ops if t is not None]
    by = dict(named)
    srcs = [(n, t) for n, t in ops[1:] if t is not None and n not in ('cc', 'pc')]

    if base in BINARY or base.startswith('mul_') and base != 'mul_step':
        if form in ('ssi', 'sss'):
            return 'SAFE_ALU(%s, sc, %s, %s);' % (base, val('sa', by['sa']), val(*srcs[1]))
        a, b = srcs
        op = base
        if a[1] in ('r', 'rk', 'k', 'rk-nozero') or a[0] == 'rb':
            compute = 'ALU(%s, %s, %s);' % (op, val(*a), val(*b))
        else:   # rir/zir forms: imm - ra; the s* conditions test the register
            compute = 'ALU_S(%s, %s, %s, %s);' % (op, val(*a), val(*b), val(*b))
        return alu_form(row, compute)

    if base in UNARY:
        return alu_form(row, 'UNARY(%s, %s);' % (base, val(*srcs[0])))

    if base in SHIFT_ADD:
        if form == 'zrri':
            return '/* no effect (isa.py) */'
        compute = 'SHIFT_ADD(%s, RV(rb), RV(ra), shift);' % base
        dest = ops[0]
        if dest[0] == 'zero':
            compute += ' (void)sum_;'
        if 'cc' in by:
            return compute + ' TAKEN(%s, cc); ' % by['cc'] + put(dest, ext, 'sum_') + 'FLAGS(); BRANCH(pc);'
        return compute + ' ' + put(dest, ext, 'sum_') + 'FLAGS();'

    if base in LOADS or base == 'ld':
        dest = ops[1]
        safe = form == 'ersi'
        addr = 'safe_addr_' if safe else 'RV(ra) + off'
        if base == 'ld':
            value = 'LOAD64(%s, endian)' % addr
            w = 'PUT_D(dc, %s);' % value
            size = 8
        else:
            size, sgn = LOADS[base]
            value = 'LOAD(%s, %d, %d, endian)' % (addr, size, sgn)
            w = put(dest, ext, value).strip()
        if safe:
            return 'SAFE(RV(sa), off, %d); %s SAFE_END(%d);' % (size, w, size)
        return w

    if base in STORES or base == 'sd' or base.endswith('_id'):
        sbase = base[:-3] if base.endswith('_id') else base
        size = STORES.get(sbase, 8)
        safe = form.startswith('es')
        addr = 'safe_addr_' if safe else 'RV(ra) + off'
        if form.endswith('ir'):
            value = 'RV(rb)' if size < 8 else 'DV(db)'
        elif base.endswith('_id'):
            value = '(uint64_t)((int64_t)TID | imm)'
        else:
            value = '(uint64_t)imm'
        st = 'STORE64(%s, %s, endian);' % (addr, value) if size == 8 else \
             'STORE(%s, %d, %s, endian);' % (addr, size, value)
        if safe:
            return 'SAFE(RV(sa), off, %d); %s SAFE_END(%d);' % (size, st, size)
        return st

    if base in ('ldma', 'ldmai', 'sdma'):
        return 'DMA_%s(RV(ra), RV(rb), immDma);' % base.upper()
    if base in ('acquire', 'release'):
        return '%s(RV(ra) + imm); TAKEN(%s, cc); FLAGS(); BRANCH(pc);' % (base.upper(), by['cc'])
    if base in ('boot', 'resume', 'clr_run', 'read_run'):
        return 'THREAD_%s(RV(ra) + imm); TAKEN(%s, cc); FLAGS(); BRANCH(pc);' % (base.upper(), by['cc'])
    if base == 'stop':
        return 'STOP(cc, pc);'
    if base == 'fault':
        return 'FAULT_INSN(imm);'
    if base == 'nop':
        return '/* nothing */'
    if base == 'tell':
        return '(void)ra; (void)off; /* no effect (isa.py) */'
    if base == 'time':
        if form == 'z':
            return '/* no effect (isa.py) */'
        compute = 'VALUE(TIME_READ());'
        if form in ('r',):
            return compute + ' ' + put(ops[0], ext, 'X').strip()
        return compute + ' TAKEN(true_cc, cc); ' + put(ops[0], ext, 'X') + 'BRANCH(pc);'
    if base == 'time_cfg':
        if form == 'zr':
            return '(void)rb; /* no effect (isa.py) */'
        if form == 'zrci':
            return 'VALUE(0); TAKEN(true_cc, cc); BRANCH(pc); (void)rb;'
        compute = 'VALUE(TIME_CONFIG(RV(rb)));'
        if form == 'rr':
            return compute + ' ' + put(ops[0], ext, 'X').strip()
        return compute + ' TAKEN(true_cc, cc); ' + put(ops[0], ext, 'X') + 'BRANCH(pc);'
    if base == 'call':
        target = 'RV(ra) + %s' % ('RV(rb)' if form.endswith('rr') else 'off')
        if form.startswith('z'):
            return 'GOTO(%s);' % target
        return 'CALL(rc, %s);' % target
    if base in ('movd', 'swapd'):
        value = 'DV(db)' if base == 'movd' else 'SWAP_HALVES(DV(db))'
        return 'VALUE(0); TAKEN(true_false_cc, cc); PUT_D(dc, %s); BRANCH(pc);' % value
    if base in ('mul_step', 'div_step'):
        return '%s(RV(ra), DV(db), shift); TAKEN(%s, cc); PUT_D(dc, pair_); FLAGS(); BRANCH(pc);' % (
            base.upper(), by['cc'])
    sys.exit('no behaviour template for ' + row['sig'])

# ---- ordering -----------------------------------------------------------------------------------

def is_names(row, tok):
    name, typ = tok
    return typ is None or typ in REG_TYPE or typ.endswith('_cc')


def order_key(row):
    """Within one mnemonic, register (name-table) operands before numeric ones, position by
    position: the assembler tries templates in declaration order, and a numeric operand may be a
    symbol, which would swallow a register name. Sugar first on ties (display ties)."""
    return tuple(0 if is_names(row, t) else 1 for t in operands(row))

# ---- output ---------------------------------------------------------------------------------------

HEADER = '/* Generated by models/dpu/gen_isa.py from models/dpu/data/instructions.tsv and conditions.tsv:\n * do not edit. */\n'


def c_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def main():
    real = [r for r in ROWS if r['kind'] == 'real']
    sugar = [r for r in ROWS if r['kind'] == 'sugar']
    by_sig = {r['sig']: r for r in ROWS}
    assert len(real) == 973 and len(sugar) == 105, (len(real), len(sugar))

    # conditions
    out = [HEADER, '/* Condition classes: code -> meaning (enum dpu_cc in forms.h). */\n']
    for cls in sorted(CLASSES):
        if cls == 'no_cc':
            continue
        entries = ', '.join('[%s] = %s' % (c['code'], MEANING[c['name']]) for c in CLASSES[cls])
        out.append('static const uint8_t dpu_cc_%s[64] = { %s };\n' % (cls, entries))
    write('isa_conditions.inc', ''.join(out))

    # behaviours
    out = [HEADER, '/* One behaviour per real signature of instructions.tsv (%d). */\n' % len(real)]
    for r in real:
        params = ', '.join(field_order(r))
        out.append('BEHAVIOUR(%s%s) { ISSUE(); %s }\n' % (ident(r['sig']), ', ' + params if params else '',
                                                        behaviour(r)))
    write('isa_behaviours.inc', ''.join(out))

    # kinds and instructions
    groups = {}
    for r in ROWS:
        groups.setdefault(r['mnemonic'], []).append(r)
    order = []
    for mn in sorted(groups):
        rs = groups[mn]
        rs.sort(key=lambda r: (order_key(r), r['kind'] != 'sugar'))
        order += rs
    lines = []
    for r in order:
        fmt = format_string(r)
        syn = syntax_template(r)
        beh = ident(r['sig'] if r['kind'] == 'real' else r['base_sig'])
        opts = ['.fields = %s' % c_str(fields_string(r))] if r['fields'] != '-' else []
        if r['relocations'] != '-':
            opts.append('.relocs = %s' % c_str(r['relocations'].replace(':', '=')))
        if r['kind'] == 'sugar':
            opts.append('.alias = 1')
        lines.append('    INSTRUCTION(%s, %s, %s%s);\n' % (c_str(fmt), beh, c_str(syn),
                                                         ''.join(', ' + o for o in opts)))
    out = [HEADER]
    out.append('/* Operand kinds: registers, conditions (with the assembler\'s aliases and ?/! prefixes),\n'
               ' * immediates with the ranges the LLVM assembler accepts. */\n')
    out.append('static void dpu_declare_kinds(isk_builder *B)\n{\n')
    for k, names in REG_KINDS.items():
        out.append('    KIND_NAMES(%s, %s);\n' % (c_str(k), c_str(names)))
    for cls in sorted(CLASSES):
        if cls == 'no_cc':
            continue
        out.append('    KIND_NAMES(%s, %s);\n' % (c_str(cls), c_str(class_names(cls))))
    for name in sorted(INT_KINDS):
        typ, lo, hi = INT_KINDS[name]
        if typ.startswith('pc'):
            out.append('    KIND_ABS(%s, .min = %s, .max = %s, .hex = 1);\n' % (c_str(name), cint(lo), cint(hi)))
        else:
            out.append('    KIND_INT(%s, .min = %s, .max = %s%s);\n' % (c_str(name), cint(lo), cint(hi),
                                                                     ', .hex = 1' if typ[0] == 'u' else ''))
    out.append('}\n\n')
    out.append('/* The %d signatures: %d real, %d sugar (.alias = 1). Per mnemonic, register forms come\n'
               ' * before immediate forms (the assembler tries them in this order). */\n' %
               (len(ROWS), len(real), len(sugar)))
    out.append('static void dpu_declare_instructions(isk_builder *B)\n{\n')
    out += lines
    out.append('}\n\n')
    out.append('/* Instruction relocations (elf-abi.md 5): the scatter of each is that of the operands using it\n'
               ' * in instructions.tsv; values are S + A translated from the ELF virtual address. */\n')
    out.append('static void dpu_declare_instruction_relocations(isk_builder *B)\n{\n')
    out += relocations()
    out.append('}\n')
    # Kinds are collected while the syntax templates are built: write instructions last.
    write('isa_instructions.inc', ''.join(out))


RELOC_NUMBERS = {   # elf-abi.md 5 (ELFRelocs/DPU.def)
    'R_DPU_PC': 128, 'R_DPU_IMM5': 129, 'R_DPU_IMM8_DMA': 130, 'R_DPU_IMM24_PC': 131, 'R_DPU_IMM27_PC': 132,
    'R_DPU_IMM28_PC_OPC8': 133, 'R_DPU_IMM8_STR': 134, 'R_DPU_IMM12_STR': 135, 'R_DPU_IMM16_STR': 136,
    'R_DPU_IMM16_ATM': 137, 'R_DPU_IMM24': 138, 'R_DPU_IMM24_RB': 139, 'R_DPU_IMM27': 140, 'R_DPU_IMM28': 141,
    'R_DPU_IMM32': 142, 'R_DPU_IMM32_ZERO_RB': 143, 'R_DPU_IMM17_24': 144, 'R_DPU_IMM32_DUS_RB': 145,
}


def relocations():
    """Each instruction relocation's bit scatter, taken from the operands that use it; every
    user must agree (the pack checked 864/864 against LLD), and the accepted range is the
    widest of its users' immediate ranges."""
    out = {}
    for r in ROWS:
        if r['relocations'] == '-':
            continue
        fields = dict(parse_fields(r['fields']))
        rng = ranges(r)
        for item in r['relocations'].split():
            op, name = item.split(':')
            segs = sorted(fields[op], key=lambda s: (-s[0], -s[2]))
            lo, hi = (int(x) for x in rng[op].strip('[]').split(','))
            if name in out:
                if out[name][0] != segs:
                    sys.exit('%s: %s scatters %s differently from %s' % (r['sig'], name, segs, out[name]))
                out[name][1] = min(out[name][1], lo)
                out[name][2] = max(out[name][2], hi)
            else:
                out[name] = [segs, lo, hi]
    lines = []
    for name in sorted(out, key=lambda n: RELOC_NUMBERS[n]):
        segs, lo, hi = out[name]
        spec = ' '.join('v{%s}=%s' % ('%d' % a if a == b else '%d:%d' % (a, b), '%d' % c if c == d else '%d:%d' % (c, d))
                        for a, b, c, d in segs)
        lines.append('    RELOCATION(.type = %d, .name = "%s", .bytes = 8, .fields = "%s", .min = %s, .max = %s,\n'
                     '               .convert = dpu_va_to_value);\n' % (RELOC_NUMBERS[name], name, spec, cint(lo), cint(hi)))
    return lines


def cint(v):
    if v < -2**31 or v > 2**31 - 1:
        return 'INT64_C(%d)' % v
    return '%d' % v


def write(name, text):
    path = os.path.join(HERE, name)
    with open(path, 'w') as f:
        f.write(text)
    print('wrote', path)


if __name__ == '__main__':
    main()
